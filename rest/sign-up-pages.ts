// Registration on an event's public page: the form (GET /e/{slug} shows it), its answer
// (POST /e/{slug}/register, form-urlencoded, no script needed) and the page it ends on. The rules
// are the API's (core/attendees/public-registration.ts); here the form is read, the quantities
// checked before the people are asked for, the trap field and the rate limits applied.
import type { Router } from '@koa/router';
import type Koa from 'koa';
import { publicEvent, type SignUpOffer, signUpOffer } from '../core/events';
import {
  type FormError,
  type PublicPerson,
  publicOrder,
  registeredTickets,
  registerFromPublicPage,
} from '../core/orders';
import { formToken } from '../core/platform/form-tokens';
import type { Services } from '../core/platform/services';
import { rateCounterFor } from '../core/platform/storage/shared-rate-counter';
import { readPageForm } from './page-form';
import { eventNotFoundPage, eventPage } from './pages/event';
import { html } from './pages/html';
import {
  awaitingTransferPage,
  formTooLargePage,
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
import { refusedForGuessing } from './ticket-guesses';

export interface SignUpLimits {
  /** Registrations one client address may send in ten minutes (TESSERA_SIGN_UP_ADDRESS_LIMIT). */
  signUpsPerAddress: number;
}

/** Registrations one e-mail address may be sent with, per event, in ten minutes. */
const perEmail = 5;
const windowSeconds = 600;

const pagePolicy =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function signUpPages(router: Router, services: Services, limits: SignUpLimits): void {
  const byAddress = rateCounterFor(services.db, 'sign-up-address', windowSeconds);
  const byEmail = rateCounterFor(services.db, 'sign-up-email', windowSeconds);

  /** The event page with its form as the state says; 404 when no published event is there. */
  async function show(
    ctx: Koa.Context,
    slug: string,
    offer: SignUpOffer | null,
    state: FormState,
    status = 200,
  ) {
    const event = await publicEvent(services.db, services.clock, slug);
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Security-Policy', pagePolicy);
    if (!event || !offer) {
      ctx.status = 404;
      ctx.body = eventNotFoundPage();
      return;
    }
    ctx.status = status;
    // For a browser that says neither where its post comes from (src/http/cross-site-forms.ts).
    const token = formToken(
      services.secrets.formTokenKey,
      { page: `/e/${slug}`, client: ctx.ip },
      services.clock.now(),
    );
    ctx.body = eventPage(event, registerSection(slug, offer, state, token), signUpStyle);
  }

  router.get('/e/:slug', async (ctx) => {
    const slug = ctx.params.slug!.toLowerCase();
    const offer = await signUpOffer(services.db, services.clock, slug);
    await show(ctx, slug, offer, blankState());
  });

  router.post('/e/:slug/register', async (ctx) => {
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
    // A filled trap field is a robot's: refused without saying why, nothing written.
    if ((form.get('leaveEmpty') ?? '') !== '')
      return show(
        ctx,
        slug,
        offer,
        { ...state, notice: 'Your registration could not be sent. Please try again.' },
        400,
      );
    if (form.get('action') === 'code') {
      if (offer.codeUnknown)
        return show(
          ctx,
          slug,
          offer,
          { ...state, errors: [{ field: 'accessCode', message: 'This code opens no tickets.' }] },
          422,
        );
      const opened = offer.types.filter((t) => t.byCode).map((t) => t.name);
      const notice = opened.length > 0 ? `Your code opened: ${opened.join(', ')}.` : 'Enter an access code.';
      return show(ctx, slug, offer, { ...state, notice });
    }
    const quantityErrors = checkQuantities(offer, form);
    if (quantityErrors.length > 0)
      return show(ctx, slug, offer, { ...state, step: 1, errors: quantityErrors }, 422);
    const types = typesOfPeople(offer, state.quantities);
    if (types.length > 1 && state.step === 1) return show(ctx, slug, offer, { ...state, step: 2 });

    const now = services.clock.now();
    const address = await byAddress.take(ctx.ip, limits.signUpsPerAddress, now);
    // A send the address's limit refuses takes nothing from its people's addresses.
    const emailRefusals: { person: number; resetSeconds: number }[] = [];
    if (address.allowed) {
      const emails = state.people.slice(0, types.length).map((p) => p.email.trim().toLowerCase());
      for (const [person, email] of emails.entries()) {
        if (!email || emails.indexOf(email) !== person) continue;
        const taken = await byEmail.take(`${offer.event.id}:${email}`, perEmail, now);
        if (!taken.allowed) emailRefusals.push({ person, resetSeconds: taken.resetSeconds });
      }
    }
    if (!address.allowed || emailRefusals.length > 0) {
      services.metrics?.rateLimited(address.allowed ? 'signUpEmail' : 'signUpAddress');
      // When the window that refused lets this send through again.
      const wait = address.allowed
        ? Math.max(...emailRefusals.map((r) => r.resetSeconds))
        : address.resetSeconds;
      ctx.set('Retry-After', String(wait));
      const message =
        'Too many registrations were sent from here or with this e-mail address; try again in ten minutes.';
      const field = address.allowed ? `person.${emailRefusals[0]!.person}.email` : 'ticketTypes';
      return show(ctx, slug, offer, { ...state, errors: [{ field, message }] }, 429);
    }

    const people: PublicPerson[] = types.map((t, i) =>
      personOf(offer, t.ticketTypeId, state.people[i] ?? emptyPerson()),
    );
    const result = await registerFromPublicPage(services, ctx.state.origin as string, offer, people);
    switch (result.kind) {
      case 'registered': {
        const query = result.tickets.map((t) => `t=${t.code}`).join('&');
        ctx.status = 303;
        ctx.redirect(`/e/${slug}/registered?${query}`);
        return;
      }
      case 'ordered':
        ctx.status = 303;
        ctx.redirect(`/e/${slug}/orders/${result.orderId}`);
        return;
      case 'soldOut':
        ctx.type = 'html';
        ctx.status = 409;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = soldOutPage(offer.event.name, slug, result.message);
        return;
      case 'closed':
        return show(ctx, slug, offer, { ...state, notice: result.message }, 403);
      case 'refused':
        return show(ctx, slug, offer, { ...state, errors: result.errors }, 422);
    }
  });

  router.get('/e/:slug/orders/:orderId', async (ctx) => {
    const slug = ctx.params.slug!.toLowerCase();
    const offer = await signUpOffer(services.db, services.clock, slug);
    const order = offer ? await publicOrder(services.db, offer, ctx.params.orderId!) : null;
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Content-Security-Policy', pagePolicy);
    ctx.status = offer && order ? 200 : 404;
    ctx.body =
      offer && order ? awaitingTransferPage(offer.event.name, slug, order) : ticketsNotFoundPage(slug);
  });

  router.get('/e/:slug/registered', async (ctx) => {
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
    ctx.set('Content-Security-Policy', pagePolicy);
    ctx.status = offer && tickets.length > 0 ? 200 : 404;
    ctx.body =
      offer && tickets.length > 0
        ? registeredPage(offer.event.name, slug, tickets)
        : ticketsNotFoundPage(slug);
  });
}

function registerSection(slug: string, offer: SignUpOffer, state: FormState, token: string) {
  if (offer.closed === 'demonstration')
    return html`<h2 id="register">Register</h2><p class="notice">Registrations are closed for the demonstration: its workspace is read-only.</p>`;
  if (offer.closed)
    return html`<h2 id="register">Register</h2><p class="notice">This event does not take registrations on this page.</p>`;
  if (offer.types.length === 0 && state.accessCode === '')
    return html`<h2 id="register">Register</h2><p class="muted">No tickets can be registered here right now.</p>`;
  return signUpForm(slug, offer, state, token);
}

/** The codes of /registered?t=…&t=…, each once: as many as one registration makes at most (50). */
function registeredCodes(sent: string | string[] | undefined): string[] {
  return [...new Set(([] as string[]).concat(sent ?? []))].slice(0, 50);
}

const blankState = (): FormState => ({
  accessCode: '',
  quantities: {},
  people: [emptyPerson()],
  step: 1,
  errors: [],
});

/**
 * The form as sent, raw: quantities, people (person.{i}.{field}), answers (person.{i}.answers.{id}),
 * add-ons ticked (person.{i}.addOns, one value per add-on).
 */
function stateOf(form: URLSearchParams): FormState {
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
function personOf(offer: SignUpOffer, ticketTypeId: string, values: PersonValues): PublicPerson {
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
