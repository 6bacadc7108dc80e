// The REST routes in groups (rest/route-groups.ts) answer every request exactly as one router of all
// the routes does: the same route for each route's own path (a literal beside a parameter included),
// the same 404s, 405s with their Allow, and 501s, with a trailing slash or in capitals too. Both
// are plain Koa apps over HTTP here, with a terminal middleware naming the route that answered.
import type { AddressInfo } from 'node:net';
import { Router } from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupedRoutes } from '../../rest/route-groups';
import { apiBase, type Route } from '../../rest/route-table';
import { routes } from '../../rest/routes';

const answering =
  (route: Route): Middleware =>
  (ctx) => {
    ctx.body = `${route.method} ${route.path}`;
  };

function app(routing: Middleware, allowedMethods: Middleware): Koa {
  const koa = new Koa();
  koa.use(routing);
  koa.use(allowedMethods);
  return koa;
}

function oneRouter(): Koa {
  const router = new Router({ prefix: apiBase });
  for (const route of routes) router.register(route.path, [route.method], [answering(route)]);
  return app(router.routes() as Middleware, router.allowedMethods() as Middleware);
}

function grouped(): Koa {
  const rest = groupedRoutes(routes, (router, route) =>
    router.register(route.path, [route.method], [answering(route)]),
  );
  return app(rest.routes, rest.allowedMethods);
}

const servers: { close(): void }[] = [];
async function listen(koa: Koa): Promise<string> {
  const server = koa.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let single: string;
let groups: string;
beforeAll(async () => {
  [single, groups] = await Promise.all([listen(oneRouter()), listen(grouped())]);
});
afterAll(() => {
  for (const server of servers) server.close();
});

const id = '0190a3c4-1111-7222-8333-444455556666';
async function answer(origin: string, method: string, path: string) {
  const res = await fetch(`${origin}${path}`, { method });
  return {
    status: res.status,
    allow: res.headers.get('allow'),
    body: method === 'HEAD' ? '' : await res.text(),
  };
}

/** Each route's own path, its parameters filled in. */
const ownPaths = routes.map((route) => ({
  method: route.method,
  path: `${apiBase}${route.path.replace(/:[A-Za-z]+/g, id)}`,
}));

describe('routes in groups, beside one router of all the routes', () => {
  it('every route answers its own path, and in groups as alone', async () => {
    for (const { method, path } of ownPaths) {
      const alone = await answer(single, method, path);
      expect(alone.status, `${method} ${path}`).toBe(200);
      expect(await answer(groups, method, path), `${method} ${path}`).toEqual(alone);
    }
  });

  it('the same answers for other methods, a trailing slash, capitals and unknown paths', async () => {
    const paths = [
      ...new Set([
        ...ownPaths.map((p) => p.path),
        ...ownPaths.map((p) => `${p.path}/`),
        ...ownPaths.map((p) => p.path.toUpperCase()),
        ...ownPaths.map((p) => `${p.path}/more`),
        `${apiBase}`,
        `${apiBase}/`,
        `${apiBase}/nothing`,
        `${apiBase}/events/${id}/nothing`,
        `${apiBase}//me`,
        '/me',
      ]),
    ];
    for (const path of paths)
      for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'PROPFIND']) {
        const alone = await answer(single, method, path);
        expect(await answer(groups, method, path), `${method} ${path}`).toEqual(alone);
      }
  });
});
