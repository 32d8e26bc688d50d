/**
 * The console works only at the address the service announces (PUBLIC_URL): its forms must come
 * from that origin and its cookies belong to that host. Accepting another origin's forms would
 * widen what counts as "our own page" for every CSRF check, so a page opened at another name of
 * the same local machine (127.0.0.1 for localhost, say) is sent to the announced address instead,
 * where its forms work, and says why when it gets there.
 */
import type { RequestHandler } from 'express';

/** The query flag that asks the console's page to say the browser was moved here. */
export const MOVED_FLAG = 'address';

const LOOPBACK = /^(localhost|[^/]+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Redirects a GET of a console page from another loopback name of this machine, on the same port,
 * to the same path at the announced origin. Only loopback names, and only the same port: behind a
 * proxy that rewrites Host (nginx's default), or on a port that is not the announced one, the Host
 * a request carries is not the browser's, and a redirect there would loop.
 */
export function toAnnouncedAddress(issuer: string): RequestHandler {
  const announced = new URL(issuer);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let asked: URL;
    try {
      asked = new URL(`${announced.protocol}//${req.headers.host ?? ''}`);
    } catch {
      return next();
    }
    const moved = asked.host !== announced.host && asked.port === announced.port && LOOPBACK.test(asked.hostname) && LOOPBACK.test(announced.hostname);
    if (!moved) return next();
    // The path is appended, never resolved: a path such as //elsewhere must not name another host.
    const target = new URL(`${announced.origin}${req.originalUrl}`);
    if (target.origin !== announced.origin) return next();
    target.searchParams.set(MOVED_FLAG, 'moved');
    res
      .status(303)
      .set({ Location: target.toString(), 'Cache-Control': 'no-store' })
      .type('text/plain')
      .send(`The developer console works at ${announced.origin} only (its sign-in cookies belong to that address): go to ${target.toString()}\n`);
  };
}
