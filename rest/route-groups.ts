// The REST routes in groups by the shape of their path, each group a router of its own. @koa/router
// tests every route's pattern in turn: one router of all the routes spent about 18 µs a request
// finding POST /events/{eventId}/check-ins among 179 (0.2 µs among its group of four), on the door's
// path and every other call's. A request goes to the one group its path can belong to, where the
// router matches (and answers 405 for a known path) exactly as one router of all the routes did.
import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { apiBase } from './route-table';

/**
 * A path's group: how many segments it has after /api/v1, and the segment that names what it is
 * about (the third, as `check-ins` in /events/{eventId}/check-ins/…, or the first of a shorter
 * path). A route with a parameter there belongs to every group of its length.
 */
function groupOf(segments: string[]): { length: number; name: string } {
  return { length: segments.length, name: (segments.length >= 3 ? segments[2] : segments[0])! };
}

const keyOf = (length: number, name: string) => `${length} ${name}`;
const isParameter = (segment: string) => segment.startsWith(':');

export interface GroupedRoute {
  /** The route's path under /api/v1, with :parameters, as @koa/router takes it. */
  path: string;
}

/**
 * One middleware routing to the group of the request's path (registered by `register` in the
 * routes' order), and the 405/501 answers of one router for all of them (they read only what the
 * group's router matched, `ctx.matched`).
 */
export function groupedRoutes<R extends GroupedRoute>(
  routes: readonly R[],
  register: (router: Router, route: R) => void,
): { routes: Middleware; allowedMethods: Middleware } {
  const shapes = routes.map((route) => groupOf(route.path.split('/').slice(1)));
  const groupKeys = new Set(shapes.map((g) => keyOf(g.length, isParameter(g.name) ? ':' : g.name)));
  const groups = new Map<string, Middleware>();
  for (const key of groupKeys) {
    const [length, name] = key.split(' ') as [string, string];
    const router = new Router({ prefix: apiBase });
    routes.forEach((route, i) => {
      const shape = shapes[i]!;
      if (shape.length !== Number(length)) return;
      if (shape.name === name || isParameter(shape.name)) register(router, route);
    });
    groups.set(key, router.routes() as Middleware);
  }
  const anyRouter = new Router({ prefix: apiBase });
  const groupFor = (requested: string): Middleware | undefined => {
    // As @koa/router matches: case ignored, one trailing slash allowed.
    const path = requested.toLowerCase();
    if (!path.startsWith(`${apiBase}/`)) return undefined;
    const { length, name } = groupOf(
      path
        .slice(apiBase.length + 1)
        .replace(/\/$/, '')
        .split('/'),
    );
    return groups.get(keyOf(length, name)) ?? groups.get(keyOf(length, ':'));
  };
  return {
    routes: (ctx, next) => {
      const group = groupFor(ctx.path);
      if (group) return group(ctx, next);
      // What a router that matched nothing leaves: a method no router implements is then 501.
      ctx.matched ??= [];
      return next();
    },
    allowedMethods: anyRouter.allowedMethods() as Middleware,
  };
}
