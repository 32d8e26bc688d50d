import { describe, expect, it } from '@jest/globals';
import { isDatabaseUnavailable, isRecoveryConflict } from '../src/index.js';

// What the services answer 503 for (an outage the client should wait out) rather than 500: each
// way node-postgres and Prisma's adapter say the database went away. The reliability suite's
// PostgreSQL restart found the last two: a connection that died inside a transaction ("not
// queryable"), and the adapter's error for a server shutting down, unwrapped inside a transaction.
describe('isDatabaseUnavailable', () => {
  it.each([
    ['a connection that died under a query', new Error('Client has encountered a connection error and is not queryable')],
    ['a client closed meanwhile', new Error('Client was closed and is not queryable')],
    ['a terminated connection', new Error('Connection terminated unexpectedly')],
    ['no connection in time', new Error('timeout exceeded when trying to connect')],
    ['refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    [
      // Inside a transaction, the driver adapter's own error: PostgreSQL shut down under it (57P01).
      'the server shutting down, as the driver adapter says it',
      Object.assign(new Error('terminating connection due to administrator command'), {
        name: 'DriverAdapterError',
        cause: { kind: 'postgres', originalCode: '57P01', originalMessage: 'terminating connection due to administrator command' },
      }),
    ],
  ])('%s', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it('not a bug, a constraint or bad input', () => {
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('Unique constraint failed'), { code: 'P2002' }))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

// A read a hot standby cancelled to go on replaying, as Prisma's error carries it: the primary can answer it.
describe('isRecoveryConflict', () => {
  const prisma = (originalCode: string) =>
    Object.assign(new Error('canceling statement due to conflict with recovery'), {
      code: 'P2010',
      meta: { driverAdapterError: { cause: { kind: 'postgres', originalCode } } },
    });
  it('is a cancelled read, through Prisma or the driver adapter', () => {
    expect(isRecoveryConflict(prisma('40001'))).toBe(true);
    expect(isRecoveryConflict(prisma('40P01'))).toBe(true);
    expect(isRecoveryConflict(Object.assign(new Error('conflict'), { name: 'DriverAdapterError', cause: { originalCode: '40001' } }))).toBe(true);
  });
  it('is not another failure', () => {
    expect(isRecoveryConflict(prisma('42P01'))).toBe(false);
    expect(isRecoveryConflict(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isRecoveryConflict(undefined)).toBe(false);
  });
});
