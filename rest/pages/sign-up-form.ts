// The registration form of /e/{slug}: server-rendered, works without script. Step one asks how
// many of each ticket type (and an access code that opens code-only types) with one person's
// details; more than one ticket leads to step two with a person per ticket. Every message stands
// beside its field (aria-describedby, aria-invalid) and in a summary at the top linking to it.

import type { OfferedType, QuestionView, SignUpOffer } from '../../core/events';
import type { FormError } from '../../core/orders';
import { formTokenField } from '../../core/platform/form-tokens';
import { type Html, html, trusted } from './html';

/** What the visitor sent (or nothing yet): raw text, kept to fill the form again. */
export interface FormState {
  accessCode: string;
  /** A discount code typed on the step that registers. */
  discountCode: string;
  /** How a priced order is paid, where the event offers both: card or transfer ('' not chosen yet: card). */
  payment: string;
  quantities: Record<string, string>;
  people: PersonValues[];
  /** 2: a person per ticket. */
  step: 1 | 2;
  errors: FormError[];
  /** A line above the form (a code that opened types, or opened none). */
  notice?: string;
}

export interface PersonValues {
  firstName: string;
  lastName: string;
  email: string;
  answers: Record<string, string[]>;
  /** The add-ons ticked. */
  addOns: string[];
}

export const emptyPerson = (): PersonValues => ({
  firstName: '',
  lastName: '',
  email: '',
  answers: {},
  addOns: [],
});

export const fieldId = (field: string) => `f-${field.replace(/[^A-Za-z0-9_-]/g, '-')}`;

export const signUpStyle = html`<style>${trusted(`
form.sign-up label{display:block;font-weight:600;margin:.8rem 0 .2rem}
form.sign-up input[type=text],form.sign-up input[type=email],form.sign-up input[type=number],form.sign-up input[type=date],form.sign-up input[type=tel],form.sign-up select,form.sign-up textarea{font:inherit;width:100%;max-width:28rem;padding:.45rem .55rem;border:1px solid #5b6475;border-radius:6px;color:var(--ink);background:#fff}
form.sign-up input[type=number]{max-width:7rem}
form.sign-up fieldset{border:1px solid var(--line);border-radius:8px;margin:1.2rem 0;padding:.4rem 1rem 1rem}
form.sign-up legend{font-weight:700;padding:0 .3rem}
form.sign-up .choice{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:.3rem 0}
form.sign-up .choice input{width:1.2rem;height:1.2rem}
form.sign-up .hint{color:var(--muted);margin:.1rem 0;font-size:.95rem}
form.sign-up input[aria-invalid=true],form.sign-up select[aria-invalid=true],form.sign-up textarea[aria-invalid=true]{border:2px solid #a4001d}
.field-error{color:#a4001d;font-weight:600;margin:.2rem 0}
.error-summary{border:3px solid #a4001d;border-radius:8px;padding:.6rem 1rem;margin:1rem 0}
main.prose .error-summary h2{margin:0;border:0;padding:0;font-size:1.2rem}.error-summary a{color:#a4001d;font-weight:600}
.notice{border-left:4px solid var(--accent);padding:.3rem .8rem;background:var(--soft)}
form.sign-up button{font:inherit;padding:.5rem 1.2rem;border:1px solid #5b6475;border-radius:6px;background:#fff;color:var(--ink);cursor:pointer;margin-top:.8rem}
form.sign-up button.primary{background:var(--accent);border-color:var(--accent);color:#fff;font-weight:600}
:focus-visible{outline:3px solid #1d2330;outline-offset:2px}
.trap{position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden}
.tickets-done li{margin:.4rem 0}
dl.order-facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}dl.order-facts dd{margin:0}
p.instructions{white-space:pre-line;border-left:4px solid var(--accent);padding:.3rem .8rem;background:var(--soft)}
`)}</style>`;

const money = (amount: number, currency: string) =>
  amount === 0 ? 'Free' : new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);

const labelOf = (q: QuestionView) => q.label.en ?? Object.values(q.label)[0] ?? 'Question';

/** The ticket type of each person, in the order the quantities give them (none when not chosen yet). */
export function typesOfPeople(offer: SignUpOffer, quantities: Record<string, string>): OfferedType[] {
  return offer.types.flatMap((t) => {
    const n = Number(quantities[t.ticketTypeId] ?? 0);
    return Number.isInteger(n) && n > 0 && n <= 50 ? Array.from({ length: n }, () => t) : [];
  });
}

/**
 * What the parts of one rendering of the form share: the offer, what was sent, the first message of
 * each field, and the label of each field shown (filled as the parts are made: the error summary,
 * made last, names its fields by them).
 */
interface Form {
  offer: SignUpOffer;
  state: FormState;
  errors: Map<string, string>;
  labels: Map<string, string>;
}

/**
 * The form; `token` proves to this service that it sent it (core/platform/form-tokens.ts). A
 * waiting-list offer's page posts it to its own address (`action`).
 */
export function signUpForm(
  slug: string,
  offer: SignUpOffer,
  state: FormState,
  token: string,
  action = `/e/${slug}/register`,
): Html {
  const errors = new Map<string, string>();
  for (const e of state.errors) if (!errors.has(e.field)) errors.set(e.field, e.message);
  const form: Form = { offer, state, errors, labels: new Map() };
  const chosen = typesOfPeople(offer, state.quantities);
  const body = state.step === 2 ? personPerTicket(form, chosen) : ticketsAndDetails(form, chosen);
  form.labels.set('ticketTypes', 'Tickets');
  form.labels.set('accessCode', 'Access code');
  form.labels.set('discountCode', 'Discount code');
  return html`<h2 id="register">Register</h2>${errorSummary(form)}
${state.notice ? html`<p class="notice" role="status">${state.notice}</p>` : ''}
<form class="sign-up" method="post" action="${action}" novalidate>
<input type="hidden" name="${formTokenField}" value="${token}">
${state.step === 2 ? html`<input type="hidden" name="accessCode" value="${state.accessCode}">` : ''}
${body}
${offer.takesDiscountCodes ? discountCodeField(form) : ''}
${paymentChoice(form)}
<div class="trap"><label for="f-leave-empty">Leave this field empty</label><input type="text" id="f-leave-empty" name="leaveEmpty" value="" tabindex="-1" autocomplete="off"></div>
<button type="submit" class="primary" name="action" value="register">${state.step === 1 && chosen.length > 1 ? 'Continue' : 'Register'}</button>
</form>`;
}

/** Step one: how many of each ticket type, the access code, and one person's details. */
function ticketsAndDetails(form: Form, chosen: OfferedType[]): Html {
  const { offer, state } = form;
  const single = offer.types.length === 1 ? offer.types[0] : undefined;
  return html`<fieldset id="${fieldId('ticketTypes')}"><legend>Tickets</legend>${message(form, 'ticketTypes')}
${offer.types.map((t) => quantity(form, t, single))}</fieldset>
<fieldset><legend>Access code</legend>
<label for="${fieldId('accessCode')}">Access code (optional)</label>
<p class="hint" id="${fieldId('accessCode')}-hint">Some tickets are opened by a code the organiser gave you.</p>${message(form, 'accessCode')}
<input type="text" id="${fieldId('accessCode')}" name="accessCode" value="${state.accessCode}" autocomplete="off"${describe(form, 'accessCode', 'hint')}>
<button type="submit" name="action" value="code">Apply code</button></fieldset>
${person(form, 0, chosen[0] ?? single)}`;
}

/** Card or bank transfer, asked where the event takes both and sells priced tickets here. */
function paymentChoice(form: Form): Html {
  const { offer, state } = form;
  if (!offer.payments.card || !offer.payments.transfer) return html``;
  if (!offer.types.some((t) => t.price > 0) && !offer.addOns.some((a) => a.price > 0)) return html``;
  const transfer = state.payment === 'transfer';
  return html`<fieldset><legend>How you pay</legend><p class="hint">For tickets with a price; free ones need no payment.</p>
<label class="choice"><input type="radio" name="payment" value="card"${transfer ? '' : trusted(' checked')}> By card, now (on Stripe's secure payment page)</label>
<label class="choice"><input type="radio" name="payment" value="transfer"${transfer ? trusted(' checked') : ''}> By bank transfer (tickets issued when the payment arrives)</label></fieldset>`;
}

/** A discount code, taken off with the registration (on whichever step registers). */
function discountCodeField(form: Form): Html {
  return html`<fieldset><legend>Discount code</legend>
<label for="${fieldId('discountCode')}">Discount code (optional)</label>
<p class="hint" id="${fieldId('discountCode')}-hint">Taken off the price when you register.</p>${message(form, 'discountCode')}
<input type="text" id="${fieldId('discountCode')}" name="discountCode" value="${form.state.discountCode}" autocomplete="off"${describe(form, 'discountCode', 'hint')}></fieldset>`;
}

/** Step two: the quantities chosen (kept hidden) and a person per ticket. */
function personPerTicket(form: Form, chosen: OfferedType[]): Html {
  const { offer, state } = form;
  const hiddenQuantities = offer.types.map(
    (t) =>
      html`<input type="hidden" name="qty.${t.ticketTypeId}" value="${state.quantities[t.ticketTypeId] ?? '0'}">`,
  );
  return html`${hiddenQuantities}<input type="hidden" name="step" value="2">
<p>${chosen.length === 1 ? 'One ticket: the name and e-mail of who it is for.' : `${chosen.length} tickets: a name and e-mail for each.`}</p>
${chosen.map((t, i) => person(form, i, t))}`;
}

/** A field's attributes naming its hint and its message, and marking it invalid when it has one. */
function describe(form: Form, field: string, hint?: string): Html {
  const invalid = form.errors.has(field);
  const ids = [hint ? `${fieldId(field)}-hint` : '', invalid ? `${fieldId(field)}-error` : '']
    .filter(Boolean)
    .join(' ');
  return trusted(`${ids ? ` aria-describedby="${ids}"` : ''}${invalid ? ' aria-invalid="true"' : ''}`);
}

/** The message beside a field, if it has one. */
function message(form: Form, field: string): Html | '' {
  return form.errors.has(field)
    ? html`<p class="field-error" id="${fieldId(field)}-error">${form.errors.get(field)}</p>`
    : '';
}

function input(
  form: Form,
  field: string,
  label: string,
  value: string,
  type: string,
  autocomplete: string,
): Html {
  form.labels.set(field, label);
  return html`<label for="${fieldId(field)}">${label}</label>${message(form, field)}
<input type="${type}" id="${fieldId(field)}" name="${field}" value="${value}" autocomplete="${autocomplete}"${describe(form, field)}>`;
}

/** How many of one ticket type, with its price, the places left and the most per order. */
function quantity(form: Form, t: OfferedType, single: OfferedType | undefined): Html {
  const field = `qty.${t.ticketTypeId}`;
  const most = Math.min(t.maxPerOrder, t.placesLeft ?? t.maxPerOrder);
  form.labels.set(field, t.name);
  const soldOut = t.waitingList ? 'Sold out (waiting list below) · ' : 'Sold out · ';
  const left = t.placesLeft === 0 ? soldOut : t.placesLeft === null ? '' : `${t.placesLeft} left · `;
  const hint = `${money(t.price, t.currency)} · ${left}at most ${t.maxPerOrder} per order${t.byCode ? ' · opened by your access code' : ''}${t.requiresApproval ? " · needs the organiser's approval: you send a request, and pay or get your ticket once it is approved" : ''}`;
  return html`<label for="${fieldId(field)}">${t.name}</label>
<p class="hint" id="${fieldId(field)}-hint">${hint}${t.description ? html`. ${t.description}` : ''}</p>${message(form, field)}
<input type="number" inputmode="numeric" min="0" max="${Math.max(most, 0)}" id="${fieldId(field)}" name="${field}" value="${form.state.quantities[t.ticketTypeId] ?? (single ? '1' : '0')}"${describe(form, field, 'hint')}>`;
}

/** One question's field for person `i`, by the question's kind. */
function question(form: Form, i: number, q: QuestionView, values: string[]): Html {
  const field = `person.${i}.answers.${q.questionId}`;
  const label = `${labelOf(q)}${q.required ? '' : ' (optional)'}`;
  form.labels.set(field, labelOf(q));
  const id = fieldId(field);
  const value = values[0] ?? '';
  const described = describe(form, field);
  switch (q.kind) {
    case 'choice':
      return html`<label for="${id}">${label}</label>${message(form, field)}
<select id="${id}" name="${field}"${described}><option value="">Choose…</option>${q.options.map(
        (o) =>
          html`<option value="${o.value}"${value === o.value ? trusted(' selected') : ''}>${o.label.en ?? o.value}</option>`,
      )}</select>`;
    case 'multiChoice':
      return html`<fieldset${described}><legend>${label}</legend>${message(form, field)}${q.options.map(
        (o, n) =>
          html`<label class="choice"><input type="checkbox" ${n === 0 ? trusted(`id="${id}" `) : ''}name="${field}" value="${o.value}"${values.includes(o.value) ? trusted(' checked') : ''}> ${o.label.en ?? o.value}</label>`,
      )}</fieldset>`;
    case 'checkbox':
      return html`${message(form, field)}<label class="choice"><input type="checkbox" id="${id}" name="${field}" value="yes"${value ? trusted(' checked') : ''}${described}> ${label}</label>`;
    case 'longText':
      return html`<label for="${id}">${label}</label>${message(form, field)}<textarea id="${id}" name="${field}" rows="3"${described}>${value}</textarea>`;
    default: {
      const type =
        { email: 'email', number: 'number', date: 'date', phone: 'tel' }[q.kind as string] ?? 'text';
      return html`<label for="${id}">${label}</label>${message(form, field)}<input type="${type}" id="${id}" name="${field}" value="${value}"${described}>`;
    }
  }
}

/** Person `i`'s details: name, e-mail, the questions asked of their ticket type, and the add-ons. */
function person(form: Form, i: number, type: OfferedType | undefined): Html {
  const { offer, state } = form;
  const values = state.people[i] ?? emptyPerson();
  const asked = offer.questions.filter(
    (q) =>
      q.ticketTypeIds.length === 0 || (type !== undefined && q.ticketTypeIds.includes(type.ticketTypeId)),
  );
  const legend = state.step === 2 && type ? `Ticket ${i + 1}: ${type.name}` : 'Your details';
  return html`<fieldset><legend>${legend}</legend>
${input(form, `person.${i}.firstName`, 'First name', values.firstName, 'text', 'given-name')}
${input(form, `person.${i}.lastName`, 'Last name', values.lastName, 'text', 'family-name')}
${input(form, `person.${i}.email`, 'E-mail', values.email, 'email', 'email')}
${asked.map((q) => question(form, i, q, values.answers[q.questionId] ?? []))}
${addOnChoices(form, i, type, values.addOns)}</fieldset>`;
}

/** The add-ons on offer, but not those the person's ticket already includes. */
function addOnChoices(form: Form, i: number, type: OfferedType | undefined, ticked: string[]): Html | '' {
  const field = `person.${i}.addOns`;
  const offered = form.offer.addOns.filter((a) => !type?.includedAddOnIds.includes(a.addOnId));
  if (offered.length === 0) return '';
  form.labels.set(field, 'Add-ons');
  const paidHint = offered.some((a) => a.price > 0)
    ? ' A priced add-on makes the order one paid by bank transfer.'
    : '';
  return html`<fieldset id="${fieldId(field)}"${describe(form, field, 'hint')}><legend>Add-ons (optional)</legend>
<p class="hint" id="${fieldId(field)}-hint">Extras with this ticket.${paidHint}</p>${message(form, field)}${offered.map(
    (a) =>
      html`<label class="choice"><input type="checkbox" name="${field}" value="${a.addOnId}"${ticked.includes(a.addOnId) ? trusted(' checked') : ''}> ${a.name} · ${money(a.price, a.currency)}${a.placesLeft === null ? '' : ` · ${a.placesLeft} left`}</label>`,
  )}</fieldset>`;
}

/** Every message at the top, each linking to its field; nothing when the form has none. */
function errorSummary(form: Form): Html | '' {
  if (form.state.errors.length === 0) return '';
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
<h2 id="error-summary-title">There is a problem</h2><ul>${form.state.errors.map(
    (e) => html`<li><a href="#${fieldId(e.field)}">${named(form, e.field)}: ${e.message}</a></li>`,
  )}</ul></div>`;
}

/** A field's label in the summary; with a person per ticket, "First name" alone would not say whose. */
function named(form: Form, field: string): string {
  const label = form.labels.get(field) ?? fieldLabel(form.offer, field);
  const person = /^person\.(\d+)\./.exec(field);
  return form.state.step === 2 && person ? `Ticket ${Number(person[1]) + 1}, ${label}` : label;
}

const personFields: Record<string, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'E-mail',
  addOns: 'Add-ons',
};

/**
 * The visible label of a field the form does not show right now (an answer refused for a question
 * of another step, a rule of the API naming its own path): the summary names it all the same, never
 * a bare "Field".
 */
export function fieldLabel(offer: SignUpOffer, field: string): string {
  const qty = /^qty\.(.+)$/.exec(field);
  if (qty) return offer.types.find((t) => t.ticketTypeId === qty[1])?.name ?? 'Tickets';
  const answer = /^person\.\d+\.answers\.([^.]+)/.exec(field);
  if (answer) {
    const question = offer.questions.find((q) => q.questionId === answer[1]);
    return question ? labelOf(question) : 'Your details';
  }
  const person = /^person\.\d+\.([A-Za-z]+)/.exec(field);
  if (person) return personFields[person[1]!] ?? 'Your details';
  if (field === 'discountCode') return 'Discount code';
  return field === 'accessCode' ? 'Access code' : 'Tickets';
}
