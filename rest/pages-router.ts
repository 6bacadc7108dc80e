// Pages and documents anyone may read without a key: the landing page, the public pages of
// published events and communities, the OpenAPI document, the import format's JSON Schema, the developer pages and the reference's script.
import { Router } from '@koa/router';
import { publicCommunity } from '../core/communities/public-community';
import { publicEvent } from '../core/events/public-event';
import { importJsonSchema } from '../core/import/import-schema';
import type { Services } from '../core/platform/services';
import { openApiDocument } from './openapi';
import { communityNotFoundPage, communityPage } from './pages/community';
import { errorsPage } from './pages/errors';
import { eventNotFoundPage, eventPage } from './pages/event';
import { landingPage } from './pages/landing';
import { redocBundle, referencePage } from './pages/reference';
import { startPage } from './pages/start';
import { apiBase } from './route-table';

export function pagesRouter(services: Services): Router {
  const router = new Router();
  router.get('/', (ctx) => {
    ctx.type = 'html';
    ctx.body = landingPage(ctx.state.origin);
  });
  router.get('/e/:slug', async (ctx) => {
    const event = await publicEvent(services.db, services.clock, ctx.params.slug!.toLowerCase());
    ctx.type = 'html';
    ctx.status = event ? 200 : 404;
    ctx.body = event ? eventPage(event) : eventNotFoundPage();
  });
  router.get('/c/:slug', async (ctx) => {
    const community = await publicCommunity(services.db, services.clock, ctx.params.slug!.toLowerCase());
    ctx.type = 'html';
    ctx.status = community ? 200 : 404;
    ctx.body = community ? communityPage(community) : communityNotFoundPage();
  });
  router.get(`${apiBase}/openapi.json`, (ctx) => {
    ctx.body = openApiDocument(ctx.state.origin);
  });
  router.get(`${apiBase}/import-schema.json`, (ctx) => {
    ctx.type = 'application/schema+json';
    ctx.body = importJsonSchema(ctx.state.origin);
  });
  router.get('/developers', (ctx) => {
    ctx.type = 'html';
    // Redoc's sidebar shows a logo from its vendor's CDN: the policy keeps every request on this
    // service (styles are injected inline by the renderer; its search runs in a blob worker).
    ctx.set(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'",
    );
    ctx.body = referencePage();
  });
  router.get('/developers/start', (ctx) => {
    ctx.type = 'html';
    ctx.body = startPage(ctx.state.origin);
  });
  router.get('/developers/errors', (ctx) => {
    ctx.type = 'html';
    ctx.body = errorsPage();
  });
  router.get('/developers/assets/redoc.js', (ctx) => {
    ctx.type = 'application/javascript';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = redocBundle();
  });
  return router;
}
