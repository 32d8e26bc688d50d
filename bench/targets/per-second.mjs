// The one loop of the single-thread baselines: `work` once to warm up, then as often as it runs in
// `seconds`; prints how many a second, which the bench script reads from this process's output.
export async function printPerSecond(seconds, work) {
  await work();
  const end = Date.now() + seconds * 1000;
  let count = 0;
  while (Date.now() < end) {
    await work();
    count++;
  }
  process.stdout.write(String(count / seconds));
}
