// Pages' forms are refused when another site's page sent them: a page elsewhere could otherwise have
// its visitors' browsers post this service's forms (register people, each from another address,
// past the per-address limit). The browser says where a post comes from: Sec-Fetch-Site (cross-site
// refused; same-origin and none allowed; same-site only from this service's own origin) and Origin
// (this service's own origins only). A client that says neither (an old browser, curl) must send back
// the token the form's page gave it (core/platform/form-tokens.ts). Every post, put and delete a page
// router answers passes here; the API (/api/v1, keys) and /mcp (its own Origin check) do not.
import type { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Clock } from '../../core/platform/clock';
import { checkFormToken, formPageOf, formTokenField } from '../../core/platform/form-tokens';
import { readPageForm } from '../../rest/page-form';
import { type FormRefusal, formRefusedPage } from '../../rest/pages/form-refused';
import { ownOrigins } from './public-origin';

export interface CrossSiteSettings {
  /** The service's public origin for a request (src/http/public-origin.ts). */
  originOf: (ctx: Context) => string;
  formTokenKey: Buffer;
  clock: Clock;
}

export type CrossSiteVerdict = 'allowed' | 'refused' | 'needsToken';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What the browser's own headers say of a post; `own` is the set of this service's origins. */
export function crossSiteVerdict(site: string, origin: string, own: Set<string>): CrossSiteVerdict {
  if (site === 'cross-site') return 'refused';
  // "null" (a sandboxed frame, a data: page) is no origin of this service either.
  if (origin !== '' && !own.has(origin)) return 'refused';
  if (site === 'same-origin' || site === 'none') return 'allowed';
  // Another origin of the same site (another port, a sibling subdomain) is allowed only when it is ours.
  if (site === 'same-site') return origin !== '' ? 'allowed' : 'refused';
  if (site !== '') return 'refused';
  return origin !== '' ? 'allowed' : 'needsToken';
}

/**
 * The origins this service's pages have for a request: its public origin (and loopback's other
 * spellings), and the origin the request itself was sent to (Host, or behind a trusted proxy the
 * forwarded host), which a browser names as Origin only on a page of that very origin.
 */
export function ownOriginsOf(ctx: Context, originOf: (ctx: Context) => string): Set<string> {
  const own = ownOrigins(originOf(ctx));
  if (ctx.host) own.add(`${ctx.protocol}://${ctx.host}`);
  return own;
}

/** The router's own answer, its posts checked first. */
export function crossSiteForms(settings: CrossSiteSettings, router: Router): Middleware {
  const routes = router.routes() as unknown as Middleware;
  const refuse = (ctx: Context, refusal: FormRefusal, status: number) => {
    ctx.status = status;
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.set(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
    );
    ctx.body = formRefusedPage(refusal, formPageOf(ctx.path));
  };
  return async (ctx, next) => {
    if (safeMethods.has(ctx.method) || !router.match(ctx.path, ctx.method).route) return routes(ctx, next);
    const own = ownOriginsOf(ctx, settings.originOf);
    const verdict = crossSiteVerdict(ctx.get('sec-fetch-site').toLowerCase(), ctx.get('origin'), own);
    if (verdict === 'refused') return refuse(ctx, 'crossSite', 403);
    if (verdict === 'needsToken') {
      const form = await readPageForm(ctx);
      if (!form) return refuse(ctx, 'tooLarge', 413);
      const check = checkFormToken(
        settings.formTokenKey,
        form.get(formTokenField),
        { page: formPageOf(ctx.path), client: ctx.ip },
        settings.clock.now(),
      );
      if (check !== 'valid') return refuse(ctx, check === 'expired' ? 'expired' : 'unverified', 403);
    }
    return routes(ctx, next);
  };
}
