import type { Clock } from '@svc/runtime';

/**
 * The sources this replica has seen earn a wait for failing too often, each until its wait is
 * over: so a guesser in its wait costs no work and no round trip here. Bounded: past `max`
 * sources the oldest is forgotten, which only means that source's next request is checked.
 */
export class SourceWaits {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly max = 10_000,
  ) {}

  /** Whole seconds left of the key's wait; 0 when there is none. */
  left(key: string): number {
    const until = this.until.get(key);
    if (until === undefined) return 0;
    const ms = until - this.clock.now().getTime();
    if (ms > 0) return Math.ceil(ms / 1000);
    this.until.delete(key);
    return 0;
  }

  hold(key: string, seconds: number): void {
    this.until.delete(key);
    if (this.until.size >= this.max) this.until.delete(this.until.keys().next().value!);
    this.until.set(key, this.clock.now().getTime() + seconds * 1000);
  }
}
