const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
// RFC 8252 §7.1: native apps use a reverse-domain private-use scheme such as com.example.app.
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/**
 * Why a redirect URI cannot be registered, or undefined when it can. Matching is exact at
 * authorization time, so registration is where the shape is policed: no fragments, no
 * credentials, https except on loopback, or a native app's private-use scheme.
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > 2000) return 'is longer than 2000 characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (url.hash || uri.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') return LOOPBACK.has(url.hostname) ? undefined : 'must use https (http is allowed only for localhost)';
  if (PRIVATE_USE_SCHEME.test(url.protocol)) return undefined;
  return `uses the scheme ${url.protocol} which is not allowed`;
}
