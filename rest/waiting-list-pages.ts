// The waiting list's public pages: joining a sold-out type's list from the event page
// (POST /e/{slug}/waiting, form-urlencoded, no script needed; the sign-up form's trap field and rate
// limits), and an offer's link (GET and POST /e/{slug}/waiting/{token}): the event's form for the one
// ticket held, the name and address filled in, registering in the held place (core/orders
// registerFromPublicPage with the offer) rather than taking another.
import type { Router } from '@koa/router';
import type Koa from 'koa';
import { publicEvent, type SignUpOffer, signUpOffer } from '../core/events';
import { registerFromPublicPage } from '../core/orders';
import { formToken } from '../core/platform/form-tokens';
import type { Services } from '../core/platform/services';
import {
  findWaitingOffer,
  joinFromPublicPage,
  offerHolds,
  type WaitingEntryRow as WaitingListEntryRow,
} from '../core/waiting-list';
import { readPageForm } from './page-form';
import { eventNotFoundPage, eventPage } from './pages/event';
import { html } from './pages/html';
import { formTooLargePage, soldOutPage } from './pages/sign-up-end';
import { emptyPerson, type FormState, signUpForm, signUpStyle } from './pages/sign-up-form';
import { blankJoin, type JoinState, joinedPage, offerEndedPage, offerIntro } from './pages/waiting-list';
import {
  blankState,
  eventPageShower,
  formPagePolicy,
  pagePolicy,
  paymentKindOf,
  personOf,
  stateOf,
} from './sign-up-pages';
import { type SignUpLimits, type SignUpRateCheck, signUpRateLimits } from './sign-up-rate-limits';

export function waitingListPages(router: Router, services: Services, limits: SignUpLimits): void {
  const show = eventPageShower(services);
  const rateCheck = signUpRateLimits(services, limits);

  router.post('/e/:slug/waiting', (ctx) => joinWaitingList(ctx, services, show, rateCheck));
  router.get('/e/:slug/waiting/:token', async (ctx) => {
    const slug = ctx.params.slug!.toLowerCase();
    const found = await offerOfLink(services, slug, ctx.params.token!);
    if (!found) return htmlAnswer(ctx, 404, eventNotFoundPage());
    if (!found.entry) return htmlAnswer(ctx, 410, offerEndedPage(found.offer.event.name, slug));
    await showOffer(ctx, services, slug, found.offer, found.entry, prefilled(found.entry), 200);
  });
  router.post('/e/:slug/waiting/:token', async (ctx) => {
    const slug = ctx.params.slug!.toLowerCase();
    const form = await readPageForm(ctx);
    if (!form) return tooLarge(ctx, slug);
    const found = await offerOfLink(services, slug, ctx.params.token!);
    if (!found) return htmlAnswer(ctx, 404, eventNotFoundPage());
    if (!found.entry) return htmlAnswer(ctx, 410, offerEndedPage(found.offer.event.name, slug));
    const { offer, entry } = found;
    const state = { ...stateOf(form), quantities: { [entry.ticket_type_id]: '1' }, step: 2 as const };
    if ((form.get('leaveEmpty') ?? '') !== '')
      return showOffer(
        ctx,
        services,
        slug,
        offer,
        entry,
        { ...state, notice: 'Your registration could not be sent. Please try again.' },
        400,
      );
    const person = personOf(offer, entry.ticket_type_id, state.people[0] ?? emptyPerson());
    const result = await registerFromPublicPage(
      services,
      ctx.state.origin as string,
      offer,
      [person],
      '',
      paymentKindOf(offer, state),
      { entryId: entry.id, ticketTypeId: entry.ticket_type_id },
    );
    switch (result.kind) {
      case 'registered':
        ctx.status = 303;
        return ctx.redirect(`/e/${slug}/registered?${result.tickets.map((t) => `t=${t.code}`).join('&')}`);
      case 'ordered':
        ctx.status = 303;
        // A card order goes on to Stripe's Checkout, in the place the offer held.
        return ctx.redirect(result.paymentUrl ?? `/e/${slug}/orders/${result.orderId}`);
      case 'requested':
        ctx.status = 303;
        return ctx.redirect(`/e/${slug}/orders/${result.orderId}`);
      case 'paymentUnavailable':
        return showOffer(ctx, services, slug, offer, entry, { ...state, notice: result.message }, 503);
      case 'soldOut':
        return htmlAnswer(ctx, 409, soldOutPage(offer.event.name, slug, result.message));
      case 'closed':
        return showOffer(ctx, services, slug, offer, entry, { ...state, notice: result.message }, 403);
      case 'refused':
        return showOffer(ctx, services, slug, offer, entry, { ...state, errors: result.errors }, 422);
    }
  });
}

/** The event and the offer its link names, the offer only while it holds its place; null: no such event. */
async function offerOfLink(
  services: Services,
  slug: string,
  token: string,
): Promise<{ offer: SignUpOffer; entry: WaitingListEntryRow | null } | null> {
  const offer = await signUpOffer(services.db, services.clock, slug);
  if (!offer) return null;
  const entry = await findWaitingOffer(services.db, offer.event.id, token);
  const holds = entry !== null && offerHolds(entry, services.clock.now());
  // The form offers exactly the ticket held: no other type, no discount code.
  const only = offer.types.filter((t) => t.ticketTypeId === entry?.ticket_type_id);
  return {
    offer: { ...offer, types: only, takesDiscountCodes: false },
    entry: holds && only.length > 0 ? entry : null,
  };
}

/** The offer's page: the event, when the place is held until, and the form for the one ticket. */
async function showOffer(
  ctx: Koa.Context,
  services: Services,
  slug: string,
  offer: SignUpOffer,
  entry: WaitingListEntryRow,
  state: FormState,
  status: number,
) {
  const event = await publicEvent(services.db, services.clock, offer.event);
  const token = formToken(
    services.secrets.formTokenKey,
    { page: `/e/${slug}/waiting`, client: ctx.ip },
    services.clock.now(),
  );
  const type = offer.types[0]!;
  const until = `${new Date(entry.offer_expires_utc!).toLocaleString('en-GB', { timeZone: offer.event.time_zone, dateStyle: 'medium', timeStyle: 'short' })} (${offer.event.time_zone})`;
  // The link's token stays on this site; the form's own post still names its origin (with no-referrer
  // a browser sends Origin: null, which the cross-site check refuses).
  ctx.set('Referrer-Policy', 'same-origin');
  htmlAnswer(
    ctx,
    status,
    eventPage(
      event,
      html`${offerIntro(type.name, until)}${signUpForm(slug, offer, state, token, `/e/${slug}/waiting/${ctx.params.token}`)}`,
      signUpStyle,
    ),
    formPagePolicy(services, offer),
  );
}

/** The form for the held ticket with the name and address the person joined with. */
function prefilled(entry: WaitingListEntryRow): FormState {
  return {
    ...blankState(),
    quantities: { [entry.ticket_type_id]: '1' },
    step: 2,
    people: [
      {
        ...emptyPerson(),
        firstName: entry.first_name ?? '',
        lastName: entry.last_name ?? '',
        email: entry.email ?? '',
      },
    ],
  };
}

function joinStateOf(form: URLSearchParams): JoinState {
  const field = (name: string) => (form.get(`wait.${name}`) ?? '').slice(0, 300);
  return {
    ...blankJoin(),
    ticketTypeId: field('ticketTypeId').trim(),
    firstName: field('firstName'),
    lastName: field('lastName'),
    email: field('email'),
    consent: form.get('wait.consent') === 'yes',
  };
}

function htmlAnswer(ctx: Koa.Context, status: number, body: string, policy = pagePolicy()) {
  ctx.type = 'html';
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Security-Policy', policy);
  ctx.body = body;
}

function tooLarge(ctx: Koa.Context, slug: string) {
  htmlAnswer(ctx, 413, formTooLargePage(slug));
}

/** POST /e/{slug}/waiting: a name for a sold-out type's waiting list, with the form's own checks and limits. */
async function joinWaitingList(
  ctx: Koa.Context,
  services: Services,
  show: ReturnType<typeof eventPageShower>,
  rateCheck: SignUpRateCheck,
) {
  const slug = ctx.params.slug!.toLowerCase();
  const form = await readPageForm(ctx);
  if (!form) return tooLarge(ctx, slug);
  const join = joinStateOf(form);
  const offer = await signUpOffer(services.db, services.clock, slug);
  if (!offer || offer.closed) return show(ctx, slug, offer, blankState(), offer ? 403 : 404, join);
  if ((form.get('leaveEmpty') ?? '') !== '')
    return show(ctx, slug, offer, blankState(), 400, {
      ...join,
      errors: [{ field: 'wait', message: 'Your request could not be sent. Please try again.' }],
    });
  const limited = await rateCheck(ctx.ip, offer.event.id, [join.email]);
  if (limited) {
    ctx.set('Retry-After', String(limited.retryAfterSeconds));
    return show(ctx, slug, offer, blankState(), 429, {
      ...join,
      errors: [{ field: 'wait', message: limited.error.message }],
    });
  }
  const answer = await joinFromPublicPage(services, ctx.state.origin as string, offer, join);
  if (answer.kind === 'closed') return show(ctx, slug, offer, blankState(), 403, join);
  if (answer.kind === 'refused')
    return show(ctx, slug, offer, blankState(), 422, { ...join, errors: answer.errors });
  htmlAnswer(ctx, 200, joinedPage(offer.event.name, slug, answer.position, answer.offered));
}
