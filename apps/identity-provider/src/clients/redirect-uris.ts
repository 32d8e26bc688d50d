// A loopback IP literal over http, an optional port, then the rest (path and query) as written.
const LOOPBACK_IP = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?(\/[^#]*)?$/;

/**
 * Whether `presented` is one of the client's registered redirect URIs: compared exactly, as
 * strings, except that a native app's loopback IP redirect (http://127.0.0.1/… or http://[::1]/…)
 * matches on any port, since the app's listening port is only chosen at run time (RFC 8252 §7.3).
 * Everything else (host, path, query) must still be identical; `localhost` is never widened, as
 * a name may resolve elsewhere (RFC 8252 §8.3).
 */
export function redirectUriMatches(registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true;
  const asked = LOOPBACK_IP.exec(presented);
  if (!asked) return false;
  const port = asked[2] === undefined ? 80 : Number(asked[2]);
  if (port < 1 || port > 65535) return false;
  return registered.some((uri) => {
    const known = LOOPBACK_IP.exec(uri);
    return known !== null && known[1] === asked[1] && (known[3] ?? '') === (asked[3] ?? '');
  });
}
