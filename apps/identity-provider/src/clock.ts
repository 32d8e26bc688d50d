/**
 * The service's one clock. Every route and service reads time through the same object, so a test
 * moves time for all of them at once by replacing `now`.
 */
export interface Clock {
  now(): Date;
}

export const systemClock = (): Clock => ({ now: () => new Date() });
