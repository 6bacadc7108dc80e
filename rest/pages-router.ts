// Pages and documents anyone may read without a key: the landing page, the public pages of
// published events and communities, the developer pages and the reference's script.
import { Router } from '@koa/router';
import type Koa from 'koa';
import { publicTicket, publicTicketCalendar } from '../core/attendees';
import { verifyCertificate } from '../core/certificates';
import { publicCommunity } from '../core/communities';
import { buyerDocument, ticketDocumentLinks } from '../core/documents';
import type { Services } from '../core/platform/services';
import { followShareLink } from '../core/sharekit';
import { answerHeldFile } from './held-file';
import { certificateNotFoundPage, certificatePage } from './pages/certificate';
import { communityNotFoundPage, communityPage } from './pages/community';
import { errorsPage } from './pages/errors';
import { landingPage } from './pages/landing';
import { referencePage, scalarBundle } from './pages/reference';
import { scanAsset, scanPage, scanPermissions, scanPolicy } from './pages/scan';
import { shareLinkNotFoundPage } from './pages/share-link';
import { startPage } from './pages/start';
import { documentNotFoundPage, ticketNotFoundPage, ticketPage } from './pages/ticket';
import { type SignUpLimits, signUpPages } from './sign-up-pages';
import { refusedForGuessing } from './ticket-guesses';
import { waitingListPages } from './waiting-list-pages';

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

// A ticket's page needs nothing beyond its own inline style and the empty icon: no script at all.
const ticketPolicy = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function pagesRouter(services: Services, limits: SignUpLimits): Router {
  const router = new Router();
  router.get('/', (ctx) => {
    ctx.type = 'html';
    ctx.body = landingPage(ctx.state.origin);
  });
  // /e/{slug} with its registration form, the form's answer and the page it ends on.
  signUpPages(router, services, limits);
  // Its waiting list: joining a sold-out type's, and an offer's link.
  waitingListPages(router, services, limits);
  router.get('/s/:slug/:code', (ctx) => followShareLinkPage(ctx, services));
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
  router.get('/t/:file', (ctx) => ticketFile(ctx, services));
  router.get('/d/:token', (ctx) => buyerDocumentFile(ctx, services));
  router.get('/c/:slug', async (ctx) => {
    const community = await publicCommunity(services.db, services.clock, ctx.params.slug!.toLowerCase());
    ctx.type = 'html';
    ctx.status = community ? 200 : 404;
    ctx.body = community ? communityPage(community) : communityNotFoundPage();
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
    const bundle = scalarBundle();
    // Asked by the version the page names, it never changes: kept a year. Any other way (an old
    // page's address after an upgrade, none at all) it is checked again on every load.
    const named = ctx.query.v === bundle.version;
    ctx.set('Cache-Control', named ? 'public, max-age=31536000, immutable' : 'no-cache');
    answerHeldFile(ctx, bundle);
  });
  // The door scanner: the page under its own policy (its scripts, the camera), and its files.
  router.get('/scan', (ctx) => {
    ctx.type = 'html';
    ctx.set('Content-Security-Policy', scanPolicy);
    ctx.set('Permissions-Policy', scanPermissions);
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = scanPage();
  });
  router.get('/scan/:file', (ctx) => {
    const asset = scanAsset(ctx.params.file!);
    if (!asset) {
      ctx.status = 404;
      return;
    }
    ctx.set('X-Content-Type-Options', 'nosniff');
    // Checked again on every load (the service worker falls back to its copy offline): 304 while
    // the file is the same.
    ctx.set('Cache-Control', 'no-cache');
    // The worker lives under /scan/ but serves the page /scan itself.
    if (ctx.params.file === 'sw.js') ctx.set('Service-Worker-Allowed', '/scan');
    answerHeldFile(ctx, asset);
  });
  return router;
}

/** A share link's short address: counts the click and sends the visitor to the event's page. */
async function followShareLinkPage(ctx: Koa.Context, services: Services) {
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
}

/**
 * A ticket's page /t/{code} and its calendar file /t/{code}.ics. The code in the address is a
 * credential: no shared cache keeps the page, no Referer carries it away, no search engine lists it.
 */
async function ticketFile(ctx: Koa.Context, services: Services) {
  ctx.set('Cache-Control', 'private, no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Robots-Tag', 'noindex, nofollow');
  ctx.set('Content-Security-Policy', ticketPolicy);
  const file = ctx.params.file!;
  const calendar = file.endsWith('.ics');
  const code = calendar ? file.slice(0, -'.ics'.length) : file;
  const origin = ctx.state.origin as string;
  const found = calendar
    ? await publicTicketCalendar(services.db, origin, code)
    : await publicTicket(services.db, origin, code);
  // Found or not, nothing is shown to an address paused for guessing (a miss counts first).
  if (await refusedForGuessing(ctx, services, found ? 0 : 1)) return;
  if (!found) {
    // Every miss answers alike, so the page tells nothing about codes that exist.
    ctx.status = 404;
    ctx.type = 'html';
    ctx.body = ticketNotFoundPage();
  } else if ('ics' in found) {
    ctx.type = 'text/calendar; charset=utf-8';
    ctx.attachment(found.fileName);
    ctx.body = found.ics;
  } else {
    ctx.type = 'html';
    ctx.body = await ticketPage(
      found,
      await ticketDocumentLinks(services.db, services.secrets, origin, found.code),
    );
  }
}

/**
 * A buyer's invoice or credit note, /d/{token} (core/documents/document-links.ts): the PDF as an
 * attachment named by its number. The token is a credential, kept as the ticket's code is.
 */
async function buyerDocumentFile(ctx: Koa.Context, services: Services) {
  ctx.set('Cache-Control', 'private, no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Robots-Tag', 'noindex, nofollow');
  ctx.set('Content-Security-Policy', ticketPolicy);
  const found = await buyerDocument(services.db, services.secrets, ctx.params.token!);
  if (!found) {
    ctx.status = 404;
    ctx.type = 'html';
    ctx.body = documentNotFoundPage();
    return;
  }
  ctx.type = 'application/pdf';
  ctx.attachment(found.fileName);
  ctx.body = found.bytes;
}
