/** What anyone may cache (and read from any origin) for `seconds`: metadata, status lists. */
export const publicCache = (seconds: number) => ({ 'Cache-Control': `public, max-age=${seconds}`, 'Access-Control-Allow-Origin': '*' });
/** What no cache may keep: offers, codes, tokens, nonces, credentials. */
export const noStore = { 'Cache-Control': 'no-store' };
