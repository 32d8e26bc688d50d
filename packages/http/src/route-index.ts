import type { RequestHandler, Router } from 'express';

interface RouteLayer {
  route?: { path?: unknown };
  match(path: string): boolean;
}

/**
 * Express offers a request to every router in turn, and each router to every route it holds: a
 * request for the last of fifteen routers walks all of them. A request whose path is one a route
 * names literally (`/v2/userinfo`) goes straight to the router that would have answered it, found
 * once at start-up with Express's own matchers. Any other path (a template such as
 * `/v2/presets/:preset_name`, other letter case, a trailing slash, an unknown path) walks the
 * routers as before, and so does a request the chosen router passes on.
 */
export function routeIndex(routers: Router[]): RequestHandler {
  const layers = (router: Router) => router.stack as unknown as RouteLayer[];
  // The router Express would reach first with a route for `path`, unless a router-wide middleware
  // (which every request walking past would have run) comes before it.
  const firstFor = (path: string) => {
    for (const router of routers) {
      if (layers(router).some((layer) => !layer.route)) return undefined;
      if (layers(router).some((layer) => layer.match(path))) return router;
    }
    return undefined;
  };
  const owner = new Map<string, Router>();
  for (const router of routers) {
    for (const { route } of layers(router)) {
      const path = route?.path;
      if (typeof path !== 'string' || owner.has(path) || !/^[a-z0-9/._-]+$/i.test(path)) continue;
      const first = firstFor(path);
      if (first) owner.set(path, first);
    }
  }
  return (req, res, next) => {
    const router = owner.get(req.path);
    if (router) router(req, res, next);
    else next();
  };
}
