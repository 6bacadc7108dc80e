// The token a page's form carries in a hidden field. A browser that names where a post comes from
// (Sec-Fetch-Site, Origin) is judged by that (src/http/cross-site-forms.ts); one that names neither
// (an old browser, curl) must send this token back, which only a page of this service gives out.
// Nothing is kept on the server: the token is an HMAC under the deployment's secret of the page the
// form is on, the client address it was given to (a token fetched by another site's server is no
// use to its visitors' browsers) and when it was given, so it expires.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The hidden field's name. */
export const formTokenField = 'formToken';

/** How long a form may stay open before it must be loaded again (only browsers that send neither header need it). */
export const formTokenSeconds = 2 * 60 * 60;

/** A token given out later than the server's own clock by more than this is refused (clocks of several processes). */
const skewSeconds = 60;

/** What a token is bound to: the page the form is on (its posts go to {page}/{action}) and who was given it. */
export interface FormTokenScope {
  page: string;
  client: string;
}

export type FormTokenCheck = 'valid' | 'missing' | 'invalid' | 'expired';

export function formToken(key: Buffer, scope: FormTokenScope, now: Date): string {
  const issued = Math.floor(now.getTime() / 1000);
  return `${issued}.${mac(key, scope, issued)}`;
}

export function checkFormToken(
  key: Buffer,
  token: string | null | undefined,
  scope: FormTokenScope,
  now: Date,
): FormTokenCheck {
  if (!token) return 'missing';
  const parts = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!parts) return 'invalid';
  const issued = Number(parts[1]);
  const expected = Buffer.from(mac(key, scope, issued));
  if (!timingSafeEqual(Buffer.from(parts[2]!), expected)) return 'invalid';
  const age = Math.floor(now.getTime() / 1000) - issued;
  if (age < -skewSeconds) return 'invalid';
  return age > formTokenSeconds ? 'expired' : 'valid';
}

/** The page of a form's post: a form on /e/{slug} posts to /e/{slug}/register. */
export function formPageOf(postPath: string): string {
  const cut = postPath.replace(/\/+$/, '').lastIndexOf('/');
  return cut > 0 ? postPath.slice(0, cut) : '/';
}

function mac(key: Buffer, scope: FormTokenScope, issued: number): string {
  return createHmac('sha256', key)
    .update(`tessera/form/v1\n${scope.page}\n${scope.client}\n${issued}`)
    .digest('base64url');
}
