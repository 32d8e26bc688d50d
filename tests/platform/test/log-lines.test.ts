import { describe, expect, it } from '@jest/globals';
// @ts-expect-error: a plain ES module of the launcher, without type declarations.
import { formatLogLine } from '../../../scripts/log-lines.mjs';

// What `npm start` shows in an interactive terminal for the services' JSON log lines.
describe('npm start log lines in a terminal', () => {
  const line = (entry: object) => JSON.stringify({ time: '2026-11-24T04:50:01.123Z', service: 'identity-provider', pid: 1, ...entry });

  it('reads a completed request as one: time, level, service, method, path, status, duration', () => {
    const shown = formatLogLine(
      'identity-provider',
      line({ level: 30, req_id: 'r1', method: 'GET', route: '/v2/userinfo', status: 200, duration_ms: 3.1, msg: 'request completed' }),
      { colour: false },
    );
    expect(shown).toBe('04:50:01 INFO  [identity-provider] GET /v2/userinfo 200 3.1 ms');
  });

  it('keeps every other field as key=value, and colours the level', () => {
    const plain = formatLogLine('wallet-verify', line({ level: 40, msg: 'redis connection error', err: 'connect ECONNREFUSED' }), { colour: false });
    expect(plain).toBe('04:50:01 WARN  [wallet-verify]     redis connection error err="connect ECONNREFUSED"');
    expect(formatLogLine('wallet-verify', line({ level: 50, msg: 'boom' }))).toContain('\u001b[31mERROR');
  });

  it('shows what is not a JSON log line as it came', () => {
    expect(formatLogLine('credential-issuer', 'Segmentation fault', { colour: false })).toBe('[credential-issuer] Segmentation fault');
  });

  it('names the service where it starts speaking, and leaves the column blank on its next lines', () => {
    const entry = line({ level: 30, msg: 'listening' });
    const first = formatLogLine('wallet-verify', entry, { colour: false });
    const next = formatLogLine('wallet-verify', entry, { colour: false, repeat: false });
    expect(first).toBe('04:50:01 INFO  [wallet-verify]     listening');
    expect(next).toBe('04:50:01 INFO                      listening');
    expect(next.indexOf('listening')).toBe(first.indexOf('listening'));
  });
});
