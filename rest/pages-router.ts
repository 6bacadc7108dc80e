// Pages and documents anyone may read without a key: the landing page, the public pages of
// published events and communities, the OpenAPI document, the import format's JSON Schema, the developer pages and the reference's script.
import { Router } from '@koa/router';
import { verifyCertificate } from '../core/certificates/verify-certificate';
import { publicCommunity } from '../core/communities/public-community';
import { importJsonSchema } from '../core/import/import-schema';
import type { Services } from '../core/platform/services';
import { followShareLink } from '../core/sharekit/follow-share-link';
import { openApiDocument } from './openapi';
import { certificateNotFoundPage, certificatePage } from './pages/certificate';
import { communityNotFoundPage, communityPage } from './pages/community';
import { errorsPage } from './pages/errors';
import { landingPage } from './pages/landing';
import { referencePage, scalarBundle } from './pages/reference';
import { shareLinkNotFoundPage } from './pages/share-link';
import { startPage } from './pages/start';
import { apiBase } from './route-table';
import { type SignUpLimits, signUpPages } from './sign-up-pages';

// Every request the reference makes stays on this service: its script, the OpenAPI document and the
// calls a reader sends from the page (connect-src 'self'). Beyond 'self', Scalar needs inline styles:
// it adds its stylesheet, theme and code editor as <style> elements and sets style attributes, none
// with a nonce (a nonce-only policy logs a dozen violations). data: images are the page's empty icon.
const referencePolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export function pagesRouter(services: Services, limits: SignUpLimits): Router {
  const router = new Router();
  router.get('/', (ctx) => {
    ctx.type = 'html';
    ctx.body = landingPage(ctx.state.origin);
  });
  // /e/{slug} with its registration form, the form's answer and the page it ends on.
  signUpPages(router, services, limits);
  // A share link's short address: counts the click and sends the visitor to the event's page.
  router.get('/s/:slug/:code', async (ctx) => {
    const to = await followShareLink(services, ctx.params.slug!.toLowerCase(), ctx.params.code!);
    // Every visit must reach the service to be counted: no cache keeps the redirect.
    ctx.set('Cache-Control', 'no-store');
    if (!to) {
      ctx.status = 404;
      ctx.type = 'html';
      ctx.body = shareLinkNotFoundPage();
      return;
    }
    ctx.redirect(`${ctx.state.origin}${to}`);
  });
  // A certificate's public verification: HTML for people, JSON when asked for (Accept).
  router.get('/v/:code', async (ctx) => {
    const check = await verifyCertificate(services.db, ctx.state.origin, ctx.params.code!);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = check ? 200 : 404;
    if (ctx.accepts('html', 'json') === 'json')
      ctx.body = check ? { found: true, ...check } : { found: false, valid: false };
    else {
      ctx.type = 'html';
      ctx.body = check ? certificatePage(check) : certificateNotFoundPage();
    }
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
    ctx.set('Content-Security-Policy', referencePolicy);
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
  router.get('/developers/assets/scalar.js', (ctx) => {
    ctx.type = 'application/javascript';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = scalarBundle();
  });
  return router;
}
