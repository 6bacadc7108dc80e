// The waiting list on an event's public page: the form to join a sold-out type's list (no script
// needed; every message beside its field and in a summary at the top), the page joining ends on,
// and the pages of an offer's link (the form of sign-up-form.ts for its one ticket, or the offer ended).
import type { OfferedType } from '../../core/events';
import type { FormError } from '../../core/orders';
import { formTokenField } from '../../core/platform/form-tokens';
import { type Html, html, trusted } from './html';
import { page } from './layout';
import { fieldId, signUpStyle } from './sign-up-form';

/** What the visitor sent to join (or nothing yet), kept to fill the form again. */
export interface JoinState {
  ticketTypeId: string;
  firstName: string;
  lastName: string;
  email: string;
  consent: boolean;
  errors: FormError[];
}

export const blankJoin = (): JoinState => ({
  ticketTypeId: '',
  firstName: '',
  lastName: '',
  email: '',
  consent: false,
  errors: [],
});

const labels: Record<string, string> = {
  wait: 'Waiting list',
  'wait.ticketTypeId': 'Ticket',
  'wait.firstName': 'First name',
  'wait.lastName': 'Last name',
  'wait.email': 'E-mail',
  'wait.consent': 'Consent',
};

/** The join form for the sold-out types that keep a waiting list; nothing when there are none. */
export function waitingJoinForm(
  slug: string,
  types: OfferedType[],
  state: JoinState,
  token: string,
): Html | '' {
  if (types.length === 0) return '';
  const errors = new Map<string, string>();
  for (const e of state.errors) if (!errors.has(e.field)) errors.set(e.field, e.message);
  const message = (field: string) =>
    errors.has(field)
      ? html`<p class="field-error" id="${fieldId(field)}-error">${errors.get(field)}</p>`
      : '';
  const described = (field: string, hint?: string) => {
    const ids = [hint ?? '', errors.has(field) ? `${fieldId(field)}-error` : ''].filter(Boolean).join(' ');
    return trusted(
      `${ids ? ` aria-describedby="${ids}"` : ''}${errors.has(field) ? ' aria-invalid="true"' : ''}`,
    );
  };
  const text = (field: 'firstName' | 'lastName' | 'email', type: string, autocomplete: string) => {
    const name = `wait.${field}`;
    return html`<label for="${fieldId(name)}">${labels[name]}</label>${message(name)}
<input type="${type}" id="${fieldId(name)}" name="${name}" value="${state[field]}" autocomplete="${autocomplete}"${described(name)}>`;
  };
  const choice =
    types.length === 1
      ? html`<input type="hidden" name="wait.ticketTypeId" value="${types[0]!.ticketTypeId}">`
      : html`<label for="${fieldId('wait.ticketTypeId')}">Ticket</label>${message('wait.ticketTypeId')}
<select id="${fieldId('wait.ticketTypeId')}" name="wait.ticketTypeId"${described('wait.ticketTypeId')}>${types.map(
          (t) =>
            html`<option value="${t.ticketTypeId}"${state.ticketTypeId === t.ticketTypeId ? trusted(' selected') : ''}>${t.name}</option>`,
        )}</select>`;
  const summary =
    state.errors.length === 0
      ? ''
      : html`<div class="error-summary" role="alert" aria-labelledby="wait-summary-title" tabindex="-1">
<h2 id="wait-summary-title">There is a problem</h2><ul>${state.errors.map(
          (e) =>
            html`<li><a href="#${fieldId(e.field)}">${labels[e.field] ?? 'Waiting list'}: ${e.message}</a></li>`,
        )}</ul></div>`;
  const names = types.map((t) => t.name).join(', ');
  return html`<h2 id="waiting-list">Waiting list</h2>${summary}
<p id="${fieldId('wait')}">Sold out: ${names}. Join the waiting list: when a place comes free, the next in line is e-mailed a link that holds it for them for a while.</p>${message('wait')}
<form class="sign-up" method="post" action="/e/${slug}/waiting" novalidate>
<input type="hidden" name="${formTokenField}" value="${token}">
<fieldset><legend>Join the waiting list</legend>
${choice}
${text('firstName', 'text', 'given-name')}
${text('lastName', 'text', 'family-name')}
${text('email', 'email', 'email')}
${message('wait.consent')}<label class="choice"><input type="checkbox" id="${fieldId('wait.consent')}" name="wait.consent" value="yes"${state.consent ? trusted(' checked') : ''}${described('wait.consent')}> E-mail me when a place comes free (my name and address are kept for this list only)</label>
</fieldset>
<div class="trap"><label for="f-wait-leave-empty">Leave this field empty</label><input type="text" id="f-wait-leave-empty" name="leaveEmpty" value="" tabindex="-1" autocomplete="off"></div>
<button type="submit" class="primary">Join the waiting list</button>
</form>`;
}

const frame = (title: string, body: Html) =>
  page({ title, section: 'event', head: signUpStyle, body: html`<main class="prose">${body}</main>` });

export function joinedPage(
  eventName: string,
  slug: string,
  position: number | null,
  offered: boolean,
): string {
  const where = offered
    ? html`<p>A place has come free already: we have e-mailed you a link to take it.</p>`
    : html`<p>You are <strong>number ${String(position ?? 1)}</strong> in line.</p>
<p>When a place comes free and it is your turn, we e-mail you a link that holds it for you for a while. If you do not take it in time, it goes to the next person.</p>`;
  return frame(
    `You're on the waiting list: ${eventName}`,
    html`<h1>You're on the waiting list</h1><p>for <a href="/e/${slug}">${eventName}</a>.</p>${where}`,
  );
}

export function offerEndedPage(eventName: string, slug: string): string {
  return frame(
    `Offer ended: ${eventName}`,
    html`<h1>This offer has ended</h1><p>The place it held is no longer held for you: the offer ran out, was taken up, or the organiser withdrew it.</p>
<p><a href="/e/${slug}">Back to ${eventName}</a>.</p>`,
  );
}

/** The heading of an offer's page: which ticket, and until when the place is held. */
export function offerIntro(ticketTypeName: string, until: string): Html {
  return html`<h2 id="register">Your place from the waiting list</h2>
<p class="notice">A place of <strong>${ticketTypeName}</strong> is held for you until <strong>${until}</strong>. Register below to take it.</p>`;
}
