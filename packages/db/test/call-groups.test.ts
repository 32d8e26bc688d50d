import { describe, expect, it } from '@jest/globals';
import { CallGroups } from '../src/call-groups.js';

/** A runner that records each group it is given and answers after the test lets it. */
function recordingRunner(fail: (input: string) => boolean = () => false) {
  const groups: string[][] = [];
  const runGroup = async (inputs: string[]) => {
    groups.push(inputs);
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (inputs.some(fail)) throw new Error(`refused: ${inputs.join(',')}`);
    return inputs.map((input) => `done ${input}`);
  };
  return { groups, runGroup };
}

describe('CallGroups', () => {
  it('sends a lone call at once, and the calls that arrive meanwhile together as the next group', async () => {
    const { groups, runGroup } = recordingRunner();
    const calls = new CallGroups(runGroup, (input) => input);
    const answers = await Promise.all(['a', 'b', 'c', 'd'].map((input) => calls.call(input)));
    expect(answers).toEqual(['done a', 'done b', 'done c', 'done d']);
    expect(groups).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('never puts two calls with one key in a group: the later goes in the next', async () => {
    const { groups, runGroup } = recordingRunner();
    const calls = new CallGroups(runGroup, (input) => input.split(':')[0]!);
    await Promise.all(['x:1', 'y:1', 'x:2', 'z:1', 'x:3'].map((input) => calls.call(input)));
    expect(groups).toEqual([['x:1'], ['y:1', 'x:2', 'z:1'], ['x:3']]);
  });

  it('keeps a group within its largest size', async () => {
    const { groups, runGroup } = recordingRunner();
    const calls = new CallGroups(runGroup, (input) => input, 2);
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((input) => calls.call(input)));
    expect(groups).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
  });

  it('runs a failed group again call by call, so only the failing call fails', async () => {
    const { groups, runGroup } = recordingRunner((input) => input === 'bad');
    const calls = new CallGroups(runGroup, (input) => input);
    const settled = await Promise.allSettled(['a', 'b', 'bad', 'c'].map((input) => calls.call(input)));
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual(['done a', 'done b', 'refused: bad', 'done c']);
    expect(groups).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  });

  it('fails every call of a group whose outcome is unknown, without running it again', async () => {
    for (const error of [new Error('Connection terminated unexpectedly'), Object.assign(new Error('reset'), { code: 'ECONNRESET' })]) {
      const runs: string[][] = [];
      const calls = new CallGroups(
        async (inputs: string[]) => {
          runs.push(inputs);
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (inputs.length > 1) throw error;
          return inputs;
        },
        (input) => input,
      );
      const settled = await Promise.allSettled(['a', 'b', 'c'].map((input) => calls.call(input)));
      expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
      expect(runs).toEqual([['a'], ['b', 'c']]);
    }
  });

  it('fails every call of a group that answered the wrong number of results', async () => {
    const calls = new CallGroups(
      async (inputs: string[]) => (inputs.length > 1 ? inputs.slice(1) : inputs),
      (input) => input,
    );
    const settled = await Promise.allSettled(['a', 'b', 'c'].map((input) => calls.call(input)));
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([
      'a',
      'a group of 2 calls answered 1 results',
      'a group of 2 calls answered 1 results',
    ]);
  });
});
