// Registration on an event's public page: the form (GET /e/{slug} shows it), its answer
// (POST /e/{slug}/register, form-urlencoded, no script needed) and the page it ends on. The rules
// are the API's (core/attendees/public-registration.ts); here the form is read, the quantities
// checked before the people are asked for, the trap field and the rate limits
// (sign-up-rate-limits.ts) applied.
import type { Router } from '@koa/router';
import type Koa from 'koa';
import { publicEvent, type SignUpOffer, signUpOffer } from '../core/events';
import {
  confirmCheckoutReturn,
  eventAtSlug,
  type FormError,
  openCheckoutForBuyer,
  type PublicPerson,
  type PublicRegistration,
  publicOrder,
  registeredTickets,
  registerFromPublicPage,
} from '../core/orders';
import { formToken } from '../core/platform/form-tokens';
import type { Services } from '../core/platform/services';
import { readPageForm } from './page-form';
import { eventNotFoundPage, eventPage } from './pages/event';
import { html } from './pages/html';
import {
  formTooLargePage,
  orderPage,
  registeredPage,
  soldOutPage,
  ticketsNotFoundPage,
} from './pages/sign-up-end';
import {
  emptyPerson,
  type FormState,
  type PersonValues,
  signUpForm,
  signUpStyle,
  typesOfPeople,
} from './pages/sign-up-form';
import { blankJoin, type JoinState, waitingJoinForm } from './pages/waiting-list';
import { type SignUpLimits, type SignUpRateCheck, signUpRateLimits } from './sign-up-rate-limits';
import { refusedForGuessing } from './ticket-guesses';

export type { SignUpLimits } from './sign-up-rate-limits';

/** The pages' policy; a form that may end at Stripe's Checkout names its origin (browsers hold redirects to it). */
export const pagePolicy = (formTargets = "'self'") =>
  `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action ${formTargets}; frame-ancestors 'none'; base-uri 'none'`;

/** The policy of a page with the registration form: its post may end at Stripe's Checkout. */
export function formPagePolicy(services: Services, offer: SignUpOffer | null): string {
  return pagePolicy(offer?.payments.card ? `'self' ${checkoutOrigin(services)}` : "'self'");
}

/** Where Stripe's Checkout pages are: Stripe's own, or the stand-in the tests point the SDK at. */
function checkoutOrigin(services: Services): string {
  const api = services.stripeApi;
  return api
    ? `${api.protocol}://${api.host.includes(':') ? `[${api.host}]` : api.host}:${api.port}`
    : 'https://checkout.stripe.com';
}

/** Shows the event page with its forms as the states say; 404 when no published event is there. */
export type Show = (
  ctx: Koa.Context,
  slug: string,
  offer: SignUpOffer | null,
  state: FormState,
  status?: number,
  join?: JoinState,
) => Promise<void>;

export function signUpPages(router: Router, services: Services, limits: SignUpLimits): void {
  const show = eventPageShower(services);
  const rateCheck = signUpRateLimits(services, limits);

  router.get('/e/:slug', async (ctx) => {
    const slug = ctx.params.slug!.toLowerCase();
    const offer = await signUpOffer(services.db, services.clock, slug);
    await show(ctx, slug, offer, blankState());
  });
  router.post('/e/:slug/register', (ctx) => register(ctx, services, show, rateCheck));
  router.get('/e/:slug/orders/:orderId', (ctx) => showOrder(ctx, services));
  router.get('/e/:slug/registered', (ctx) => showRegistered(ctx, services));
}

export function eventPageShower(services: Services): Show {
  return async (ctx, slug, offer, state, status = 200, join = blankJoin()) => {
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Security-Policy', formPagePolicy(services, offer));
    // The offer's event is the page's: read once, with the offer.
    if (!offer) {
      ctx.status = 404;
      ctx.body = eventNotFoundPage();
      return;
    }
    const event = await publicEvent(services.db, services.clock, offer.event);
    ctx.status = status;
    // For a browser that says neither where its post comes from (src/http/cross-site-forms.ts).
    const token = formToken(
      services.secrets.formTokenKey,
      { page: `/e/${slug}`, client: ctx.ip },
      services.clock.now(),
    );
    ctx.body = eventPage(event, registerSection(slug, offer, state, token, join), signUpStyle);
  };
}

/** POST /e/{slug}/register: the form checked step by step, the rate limits, then the registration. */
async function register(ctx: Koa.Context, services: Services, show: Show, rateCheck: SignUpRateCheck) {
  const slug = ctx.params.slug!.toLowerCase();
  const form = await readPageForm(ctx);
  if (!form) {
    ctx.status = 413;
    ctx.type = 'html';
    ctx.body = formTooLargePage(slug);
    return;
  }
  const state = stateOf(form);
  const offer = await signUpOffer(services.db, services.clock, slug, state.accessCode);
  if (!offer || offer.closed) return show(ctx, slug, offer, state, offer ? 403 : 404);
  const before = notYetRegistering(offer, form, state);
  if (before) return show(ctx, slug, offer, before.state, before.status);

  const types = typesOfPeople(offer, state.quantities);
  const emails = state.people.slice(0, types.length).map((p) => p.email);
  const limited = await rateCheck(ctx.ip, offer.event.id, emails);
  if (limited) {
    ctx.set('Retry-After', String(limited.retryAfterSeconds));
    return show(ctx, slug, offer, { ...state, errors: [limited.error] }, 429);
  }
  const people: PublicPerson[] = types.map((t, i) =>
    personOf(offer, t.ticketTypeId, state.people[i] ?? emptyPerson()),
  );
  const result = await registerFromPublicPage(
    services,
    ctx.state.origin as string,
    offer,
    people,
    offer.takesDiscountCodes ? state.discountCode : '',
    paymentKindOf(offer, state),
  );
  return answerRegistration(ctx, slug, offer, state, result, show);
}

/**
 * The form shown again instead of registering, with its status: a filled trap field (a robot's:
 * refused without saying why, nothing written), an access code entered, quantities to correct, or
 * the people to ask for on the second step. Null when the registration goes ahead.
 */
function notYetRegistering(
  offer: SignUpOffer,
  form: URLSearchParams,
  state: FormState,
): { state: FormState; status: number } | null {
  if ((form.get('leaveEmpty') ?? '') !== '')
    return {
      state: { ...state, notice: 'Your registration could not be sent. Please try again.' },
      status: 400,
    };
  if (form.get('action') === 'code') {
    if (offer.codeUnknown)
      return {
        state: { ...state, errors: [{ field: 'accessCode', message: 'This code opens no tickets.' }] },
        status: 422,
      };
    const opened = offer.types.filter((t) => t.byCode).map((t) => t.name);
    const notice = opened.length > 0 ? `Your code opened: ${opened.join(', ')}.` : 'Enter an access code.';
    return { state: { ...state, notice }, status: 200 };
  }
  const quantityErrors = checkQuantities(offer, form);
  if (quantityErrors.length > 0) return { state: { ...state, step: 1, errors: quantityErrors }, status: 422 };
  const types = typesOfPeople(offer, state.quantities);
  if (types.length > 1 && state.step === 1) return { state: { ...state, step: 2 }, status: 200 };
  return null;
}

/** What a registration answered, as the page after it: the tickets, the order, or the form again. */
function answerRegistration(
  ctx: Koa.Context,
  slug: string,
  offer: SignUpOffer,
  state: FormState,
  result: PublicRegistration,
  show: Show,
) {
  switch (result.kind) {
    case 'registered': {
      const query = result.tickets.map((t) => `t=${t.code}`).join('&');
      ctx.status = 303;
      ctx.redirect(`/e/${slug}/registered?${query}`);
      return;
    }
    case 'ordered':
    case 'requested':
      ctx.status = 303;
      // A card order goes on to Stripe's Checkout; a transfer's (or a request's) page says what next.
      ctx.redirect(('paymentUrl' in result && result.paymentUrl) || `/e/${slug}/orders/${result.orderId}`);
      return;
    case 'paymentUnavailable':
      return show(ctx, slug, offer, { ...state, notice: result.message }, 503);
    case 'soldOut':
      ctx.type = 'html';
      ctx.status = 409;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = soldOutPage(
        offer.event.name,
        slug,
        result.message,
        offer.types.some((t) => t.waitingList),
      );
      return;
    case 'closed':
      return show(ctx, slug, offer, { ...state, notice: result.message }, 403);
    case 'refused':
      return show(ctx, slug, offer, { ...state, errors: result.errors }, 422);
  }
}

/**
 * GET /e/{slug}/orders/{orderId}: an order (or a request awaiting approval), as its buyer sees it. Back from Stripe's Checkout
 * (?session_id=…), the session is read from Stripe and a payment made recorded before the page is
 * made (a lost webhook event loses nothing); ?checkout=cancelled: they went back without paying.
 */
async function showOrder(ctx: Koa.Context, services: Services) {
  const slug = ctx.params.slug!.toLowerCase();
  const orderId = ctx.params.orderId!.toLowerCase();
  const event = await eventAtSlug(services.db, slug);
  const sessionId = typeof ctx.query.session_id === 'string' ? ctx.query.session_id : null;
  if (event && sessionId)
    await confirmCheckoutReturn(services, ctx.state.origin as string, orderId, sessionId);
  else if (event) await openCheckoutForBuyer(services, ctx.state.origin as string, orderId);
  const order = event ? await publicOrder(services.db, event, orderId) : null;
  ctx.type = 'html';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Content-Security-Policy', pagePolicy());
  ctx.status = event && order ? 200 : 404;
  const returned = sessionId
    ? 'fromCheckout'
    : ctx.query.checkout === 'cancelled'
      ? 'cancelledCheckout'
      : null;
  ctx.body = event && order ? orderPage(event.name, slug, order, returned) : ticketsNotFoundPage(slug);
}

/** Card unless the visitor chose transfer, where the event takes both; else the one it takes. */
export function paymentKindOf(offer: SignUpOffer, state: FormState): 'card' | 'transfer' {
  if (!offer.payments.card) return 'transfer';
  return offer.payments.transfer && state.payment === 'transfer' ? 'transfer' : 'card';
}

/** GET /e/{slug}/registered?t=…: the tickets a registration made, by their codes. */
async function showRegistered(ctx: Koa.Context, services: Services) {
  const slug = ctx.params.slug!.toLowerCase();
  const offer = await signUpOffer(services.db, services.clock, slug);
  const codes = registeredCodes(ctx.query.t);
  const tickets = offer ? await registeredTickets(services.db, offer.event.id, codes) : [];
  // Each code that named no ticket is a miss of the one guess limit /t/{code} counts too.
  const found = new Set(tickets.map((t) => t.code));
  const misses = offer ? codes.filter((c) => !found.has(c)).length : 0;
  if (await refusedForGuessing(ctx, services, misses)) return;
  ctx.type = 'html';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Content-Security-Policy', pagePolicy());
  ctx.status = offer && tickets.length > 0 ? 200 : 404;
  ctx.body =
    offer && tickets.length > 0 ? registeredPage(offer.event.name, slug, tickets) : ticketsNotFoundPage(slug);
}

function registerSection(slug: string, offer: SignUpOffer, state: FormState, token: string, join: JoinState) {
  if (offer.closed === 'demonstration')
    return html`<h2 id="register">Register</h2><p class="notice">Registrations are closed for the demonstration: its workspace is read-only.</p>`;
  if (offer.closed)
    return html`<h2 id="register">Register</h2><p class="notice">This event does not take registrations on this page.</p>`;
  if (offer.types.length === 0 && state.accessCode === '')
    return html`<h2 id="register">Register</h2><p class="muted">No tickets can be registered here right now.</p>`;
  const waiting = offer.types.filter((t) => t.waitingList && t.placesLeft === 0);
  return html`${signUpForm(slug, offer, state, token)}${waitingJoinForm(slug, waiting, join, token)}`;
}

/** The codes of /registered?t=…&t=…, each once: as many as one registration makes at most (50). */
function registeredCodes(sent: string | string[] | undefined): string[] {
  return [...new Set(([] as string[]).concat(sent ?? []))].slice(0, 50);
}

export const blankState = (): FormState => ({
  accessCode: '',
  discountCode: '',
  payment: '',
  quantities: {},
  people: [emptyPerson()],
  step: 1,
  errors: [],
});

/**
 * The form as sent, raw: quantities, people (person.{i}.{field}), answers (person.{i}.answers.{id}),
 * add-ons ticked (person.{i}.addOns, one value per add-on).
 */
export function stateOf(form: URLSearchParams): FormState {
  const quantities: Record<string, string> = {};
  const people: PersonValues[] = [];
  const personAt = (i: number) => {
    while (people.length <= i) people.push(emptyPerson());
    return people[i]!;
  };
  for (const [name, value] of form) {
    const qty = /^qty\.([0-9a-f-]{36})$/.exec(name);
    if (qty) quantities[qty[1]!] = value.trim();
    const field = /^person\.(\d{1,2})\.(firstName|lastName|email)$/.exec(name);
    if (field && Number(field[1]) < 50) personAt(Number(field[1]))[field[2] as 'email'] = value;
    const addOn = /^person\.(\d{1,2})\.addOns$/.exec(name);
    if (addOn && Number(addOn[1]) < 50 && /^[0-9a-f-]{36}$/.test(value)) {
      const ticked = personAt(Number(addOn[1])).addOns;
      if (!ticked.includes(value)) ticked.push(value);
    }
    const answer = /^person\.(\d{1,2})\.answers\.([0-9a-f-]{36})$/.exec(name);
    if (answer && Number(answer[1]) < 50) {
      const values = personAt(Number(answer[1])).answers;
      values[answer[2]!] = [...(values[answer[2]!] ?? []), value];
    }
  }
  if (people.length === 0) people.push(emptyPerson());
  return {
    accessCode: (form.get('accessCode') ?? '').trim(),
    discountCode: (form.get('discountCode') ?? '').trim().slice(0, 100),
    payment: form.get('payment') === 'transfer' ? 'transfer' : '',
    quantities,
    people,
    step: form.get('step') === '2' ? 2 : 1,
    errors: [],
  };
}

/** How many of each type: whole numbers, within one order's limit, at least one ticket, only types on offer. */
function checkQuantities(offer: SignUpOffer, form: URLSearchParams): FormError[] {
  const errors: FormError[] = [];
  let total = 0;
  const offered = new Set(offer.types.map((t) => t.ticketTypeId));
  for (const [name, value] of form) {
    const qty = /^qty\.(.+)$/.exec(name);
    if (qty && !offered.has(qty[1]!) && value.trim() !== '' && value.trim() !== '0')
      errors.push({
        field: 'ticketTypes',
        message: 'A ticket type you chose is not on sale here; some need an access code.',
      });
  }
  for (const t of offer.types) {
    const raw = (form.get(`qty.${t.ticketTypeId}`) ?? '0').trim() || '0';
    const n = Number(raw);
    const field = `qty.${t.ticketTypeId}`;
    if (!/^\d{1,3}$/.test(raw)) errors.push({ field, message: 'Enter a whole number, 0 or more.' });
    else if (n > t.maxPerOrder) errors.push({ field, message: `At most ${t.maxPerOrder} per order.` });
    else total += n;
  }
  if (errors.length === 0 && total === 0)
    errors.push({ field: 'ticketTypes', message: 'Choose at least one ticket.' });
  if (errors.length === 0 && total > 50)
    errors.push({ field: 'ticketTypes', message: 'At most 50 tickets in one registration.' });
  return errors;
}

/** One person as the registration takes them: the answers in the types their questions take. */
export function personOf(offer: SignUpOffer, ticketTypeId: string, values: PersonValues): PublicPerson {
  const answers: Record<string, unknown> = {};
  for (const q of offer.questions) {
    if (q.ticketTypeIds.length > 0 && !q.ticketTypeIds.includes(ticketTypeId)) continue;
    const sent = (values.answers[q.questionId] ?? []).map((a) => a.trim());
    if (q.kind === 'multiChoice') {
      if (sent.length > 0) answers[q.questionId] = sent;
    } else if (q.kind === 'checkbox') {
      if (sent.length > 0) answers[q.questionId] = true;
    } else if (sent[0]) {
      answers[q.questionId] =
        q.kind === 'number' && Number.isFinite(Number(sent[0])) ? Number(sent[0]) : sent[0];
    }
  }
  return {
    ticketTypeId,
    firstName: values.firstName,
    lastName: values.lastName,
    email: values.email,
    answers,
    addOnIds: values.addOns,
  };
}
