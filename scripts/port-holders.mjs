// Before `npm start` starts anything: are its ports free? A second `npm start` beside a running one
// used to find the first one's services answering /ready, print "ready" and exit 0. Now it names
// each taken port and what holds it, and the launcher exits non-zero.
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';

/** Whether `port` can be listened on (all interfaces, as the services listen). */
export function portIsFree(port) {
  return new Promise((resolve) => {
    const server = createServer()
      .once('error', () => resolve(false))
      .listen(port, () => server.close(() => resolve(true)));
  });
}

/** The process listening on `port`, from `ss` where it can tell (its own processes, or any as root). */
function listeningProcess(port) {
  return new Promise((resolve) => {
    execFile('ss', ['-Hltnp', `sport = :${port}`], { timeout: 2000 }, (err, stdout) => {
      const found = err ? null : /users:\(\("([^"]+)",pid=(\d+)/.exec(stdout);
      resolve(found ? `${found[1]} (pid ${found[2]})` : undefined);
    });
  });
}

/** One of these services answers `GET /` with its name: then it is most likely another `npm start`. */
async function serviceName(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(1000) });
    const body = await res.json();
    return typeof body?.title === 'string' ? body.title : undefined;
  } catch {
    return undefined;
  }
}

/** A line for each of `wanted` ({name, port}) that is taken, saying by what; empty when all are free. */
export async function takenPorts(wanted) {
  const lines = [];
  for (const { name, port, variable } of wanted) {
    if (await portIsFree(port)) continue;
    const [title, process] = await Promise.all([serviceName(port), listeningProcess(port)]);
    const holder = title ? `${title}${process ? `, ${process}` : ''}: another npm start is probably running` : (process ?? 'another program');
    lines.push(`port ${port} (${name}) is taken by ${holder}; stop it, or choose another port with ${variable}=…`);
  }
  return lines;
}
