import { isDatabaseUnavailable } from './client.js';

interface Waiting<In, Out> {
  input: In;
  resolve: (out: Out) => void;
  reject: (err: unknown) => void;
}

/**
 * Calls that arrive while a group is in flight wait, and go together as the next group: under load
 * N concurrent callers cost one statement and one commit instead of N, and a call that finds
 * nothing in flight goes at once. Every caller is answered only once its group is done (a commit
 * stays a commit). Calls with the same key never share a group: the later goes in the next one,
 * and sees what the earlier did. A group the database refused (rolled back: a bad value, a
 * deadlock) is run again one call at a time, so a call that cannot succeed fails only itself. A
 * group whose outcome is unknown (the connection lost, an answer of the wrong shape) fails every
 * call in it: it may have committed, so running it again could find its own work done by "someone
 * else". `runGroup` should still answer a re-run of a committed call as done where it can.
 */
export class CallGroups<In, Out> {
  private waiting: Waiting<In, Out>[] = [];
  private inFlight = false;

  constructor(
    /** Runs a group; answers one output per input, in order. */
    private readonly runGroup: (inputs: In[]) => Promise<Out[]>,
    private readonly keyOf: (input: In) => string,
    private readonly maxSize = 100,
  ) {}

  call(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (!this.inFlight) void this.next();
    });
  }

  private async next(): Promise<void> {
    if (this.waiting.length === 0) return;
    this.inFlight = true;
    const group: Waiting<In, Out>[] = [];
    const keys = new Set<string>();
    const later: Waiting<In, Out>[] = [];
    for (const call of this.waiting) {
      const key = this.keyOf(call.input);
      if (group.length < this.maxSize && !keys.has(key)) {
        keys.add(key);
        group.push(call);
      } else later.push(call);
    }
    this.waiting = later;
    try {
      await this.settle(group);
    } finally {
      this.inFlight = false;
      void this.next();
    }
  }

  private async settle(group: Waiting<In, Out>[]): Promise<void> {
    let outs: Out[];
    try {
      outs = await this.runGroup(group.map((call) => call.input));
    } catch (err) {
      if (group.length === 1 || isDatabaseUnavailable(err)) return fail(group, err);
      await Promise.all(group.map((call) => this.settle([call])));
      return;
    }
    if (outs.length !== group.length) return fail(group, new Error(`a group of ${group.length} calls answered ${outs.length} results`));
    for (const [i, call] of group.entries()) call.resolve(outs[i]!);
  }
}

function fail<In, Out>(group: Waiting<In, Out>[], err: unknown): void {
  for (const call of group) call.reject(err);
}
