import type { RequestHandler, Router } from 'express';

interface RouteLayer {
  route?: { path?: unknown };
  match(path: string): boolean;
}

interface Route {
  layer: RouteLayer;
  router: Router;
}

const LITERAL = /^[a-z0-9/._-]+$/i;
/** A route's or a request's first two path segments, lower-cased (Express matches case-insensitively). */
const SECTION = /^\/([^/]*)\/?([^/]*)/;
const sectionOf = (path: string) => {
  const [, first = '', second = ''] = SECTION.exec(path) ?? [];
  return `/${first}/${second}`.toLowerCase();
};
/** A route path of one literal segment, or whose first two are literal: only paths of its section can match it. */
const SECTIONED = /^\/[a-z0-9._-]+(\/?$|\/[a-z0-9._-]+(\/|$))/i;

/**
 * Express offers a request to every router in turn, and each router to every route it holds: a
 * request for the last of thirty routers walks all of them, and that walk was a tenth of a data
 * request's CPU. This sends a request straight to the router that would have answered it, found
 * with Express's own matchers: a path a route names literally (`/v2/userinfo`) from a table made at
 * start-up, any other (`/v2/presets/age_over_18`) by matching only the routes of its section (its
 * first two segments) and those whose section is a parameter, in Express's order. A router
 * middleware that matches the path first (one at `/` matches every path; one at `/console` only
 * those below it) would have run on the way: such a request, one no route matches and one the
 * chosen router passes on walk the routers as before.
 */
export function routeIndex(routers: Router[]): RequestHandler {
  const layers = (router: Router) => router.stack as unknown as RouteLayer[];
  const routes: Route[] = routers.flatMap((router) => layers(router).map((layer) => ({ layer, router })));
  // The router whose route would answer `path` first, unless a middleware would have run before it.
  const firstFor = (candidates: Route[], path: string) => {
    const first = candidates.find(({ layer }) => layer.match(path));
    return first?.layer.route ? first.router : undefined;
  };

  const owner = new Map<string, Router>();
  for (const { layer } of routes) {
    const path = layer.route?.path;
    if (typeof path !== 'string' || owner.has(path) || !LITERAL.test(path)) continue;
    const first = firstFor(routes, path);
    if (first) owner.set(path, first);
  }
  // Each section's candidates, in Express's order: its own routes, and every route or middleware
  // not confined to one section.
  const confined = ({ layer }: Route) => typeof layer.route?.path === 'string' && SECTIONED.test(layer.route.path);
  const anywhere = routes.filter((route) => !confined(route));
  const sections = new Map<string, Route[]>();
  for (const route of routes.filter(confined)) {
    const section = sectionOf(route.layer.route!.path as string);
    if (!sections.has(section))
      sections.set(
        section,
        routes.filter((r) => !confined(r) || sectionOf(r.layer.route!.path as string) === section),
      );
  }

  return (req, res, next) => {
    const path = req.path;
    const router = owner.get(path) ?? firstFor(sections.get(sectionOf(path)) ?? anywhere, path);
    if (router) router(req, res, next);
    else next();
  };
}
