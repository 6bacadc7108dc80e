// Registration from an event's public page: paid tickets as an order awaiting a bank transfer
// (createOrder, the API's too); free tickets through the same operation as the API's
// registration (registerAttendees: the same rules, the same conditional capacity update, the same
// attendee.registered), called as the workspace's public sign-up actor: no key, the page's own
// scopes, its orders recorded as the public's (source registration) and required questions applied.
// Tickets of a type requiring approval make either a request (status requested): the page it ends
// on says so, and nothing is issued or asked to be paid until the organiser approves it.

import type { Db } from '../../db/connect';
import { registerAttendees } from '../attendees';
import type { SignUpOffer } from '../events';
import type { Ctx } from '../platform/context';
import { keylessContext } from '../platform/keyless-actor';
import { invoke } from '../platform/pipeline/invoke';
import { isProblem } from '../platform/problems';
import type { Services } from '../platform/services';
import { createOrder } from './create-order';
import { type ShownTicket, shownTickets } from './public-order';

/** The name the activity log gives the public form's registrations. */
export const publicSignUpName = 'public sign-up page';

export interface PublicPerson {
  ticketTypeId: string;
  firstName: string;
  lastName: string;
  email: string;
  answers: Record<string, unknown>;
  /** Add-ons chosen (ids, one of each). */
  addOnIds: string[];
}

/** A form field's message: fields are person.{index}.{name} and person.{index}.answers.{questionId}. */
export interface FormError {
  field: string;
  message: string;
}

export type PublicRegistration =
  | { kind: 'registered'; reference: string; tickets: { name: string; ticketType: string; code: string }[] }
  | {
      kind: 'ordered';
      orderId: string;
      reference: string;
      total: number;
      currency: string;
      /** A card order's Stripe Checkout page, where the buyer is sent next. */
      paymentUrl?: string;
    }
  | { kind: 'paymentUnavailable'; message: string }
  | { kind: 'requested'; orderId: string; reference: string }
  | { kind: 'soldOut'; message: string }
  | { kind: 'closed'; message: string }
  | { kind: 'refused'; errors: FormError[] };

const codeWords: Record<string, string> = {
  required: 'This is required.',
  tooLong: 'This is too long.',
  notEmail: 'Enter an e-mail address such as name@example.org.',
  notOption: 'Choose one of the options given.',
};

export async function registerFromPublicPage(
  services: Services,
  origin: string,
  offer: SignUpOffer,
  people: PublicPerson[],
  discountCode = '',
  paymentKind: 'card' | 'transfer' = 'transfer',
  /** A waiting-list offer the registration takes up (its link's page): its held place is used. */
  waitingOffer?: Ctx['waitingOffer'],
): Promise<PublicRegistration> {
  if (offer.closed) return { kind: 'closed', message: closedMessage(offer.closed) };
  const notOffered = notOnOffer(offer, people);
  if (notOffered) return notOffered;
  // Any priced ticket or add-on makes the whole order one to pay (createOrder): by card or transfer.
  const priced = new Set([
    ...offer.types.filter((t) => t.price > 0).map((t) => t.ticketTypeId),
    ...offer.addOns.filter((a) => a.price > 0).map((a) => a.addOnId),
  ]);
  const paid = people.some((p) => priced.has(p.ticketTypeId) || p.addOnIds.some((id) => priced.has(id)));
  const ctx = {
    ...publicContext(services, origin, offer, paid ? 'orders:write' : 'attendees:write'),
    waitingOffer,
  };
  try {
    const input = {
      eventId: offer.event.id,
      // A code goes with either: taken off an order (free once it took everything off), counted on a free registration.
      ...(discountCode !== '' ? { discountCode } : {}),
      attendees: people.map((p) => ({
        ticketTypeId: p.ticketTypeId,
        firstName: p.firstName,
        lastName: p.lastName,
        email: p.email,
        ...(Object.keys(p.answers).length > 0 ? { answers: p.answers } : {}),
        ...(p.addOnIds.length > 0 ? { addOns: p.addOnIds.map((addOnId) => ({ addOnId })) } : {}),
      })),
    };
    if (paid) {
      const { data: order } = await invoke(createOrder, ctx, { ...input, payment: { kind: paymentKind } });
      if (order.status === 'requested')
        return { kind: 'requested', orderId: order.orderId, reference: order.reference };
      if (order.status === 'free')
        return {
          kind: 'registered',
          reference: order.reference,
          tickets: await ticketsOf(services.db, order.orderId),
        };
      return {
        kind: 'ordered',
        orderId: order.orderId,
        reference: order.reference,
        total: order.total,
        currency: order.currency,
        ...(order.checkout ? { paymentUrl: order.checkout.paymentUrl } : {}),
      };
    }
    const { data: order } = await invoke(registerAttendees, ctx, input);
    if (order.attendees.some((a) => a.orderStatus === 'requested'))
      return { kind: 'requested', orderId: order.orderId, reference: order.reference };
    return {
      kind: 'registered',
      reference: order.reference,
      tickets: order.attendees.map((a) => ({
        name: `${a.firstName} ${a.lastName}`,
        ticketType: a.ticketTypeName,
        code: a.ticketCode!,
      })),
    };
  } catch (error) {
    return refusalOnForm(error, people);
  }
}

/** A ticket type or an add-on chosen that the page does not offer: said where it was chosen. */
function notOnOffer(offer: SignUpOffer, people: PublicPerson[]): PublicRegistration | null {
  const offered = new Set(offer.types.map((t) => t.ticketTypeId));
  if (people.some((p) => !offered.has(p.ticketTypeId)))
    return {
      kind: 'refused',
      errors: [{ field: 'ticketTypes', message: 'That ticket type is not on sale here.' }],
    };
  const offeredAddOns = new Set(offer.addOns.map((a) => a.addOnId));
  const addOnNotOffered = people.findIndex((p) => p.addOnIds.some((id) => !offeredAddOns.has(id)));
  if (addOnNotOffered < 0) return null;
  return {
    kind: 'refused',
    errors: [{ field: `person.${addOnNotOffered}.addOns`, message: 'That add-on is not on offer here.' }],
  };
}

/** A refusal of the registration as the form says it (sold out, closed, beside a field); other errors go on. */
function refusalOnForm(error: unknown, people: PublicPerson[]): PublicRegistration {
  if (!isProblem(error)) throw error;
  switch (error.code) {
    case 'soldOut':
      return { kind: 'soldOut', message: error.detail };
    case 'demoWorkspace':
      return { kind: 'closed', message: closedMessage('demonstration') };
    case 'stripeUnavailable':
    case 'stripeKeyRefused':
    case 'stripeNotConnected':
      // Nothing is held: the order expired at once. Said on the form; the details are the organiser's.
      return {
        kind: 'paymentUnavailable',
        message:
          'Card payment is not available right now, so nothing was registered and nothing was charged. Please try again in a moment or choose another way to pay.',
      };
    case 'invalid': {
      const errors = (error.extras.errors ?? []) as { attendee: number; field: string; code: string }[];
      return {
        kind: 'refused',
        errors: errors.map((e) => ({
          field: `person.${e.attendee}.${e.field}`,
          message: codeWords[e.code] ?? 'This is not accepted.',
        })),
      };
    }
    case 'registrationRefused': {
      if (String(error.extras.reason ?? '').startsWith('discountCode'))
        return { kind: 'refused', errors: [{ field: 'discountCode', message: error.detail }] };
      // An add-on refused is said beside the add-ons of the first person who chose it.
      const addOnId = error.extras.addOnId as string | undefined;
      const chose = addOnId === undefined ? -1 : people.findIndex((p) => p.addOnIds.includes(addOnId));
      const field = chose >= 0 ? `person.${chose}.addOns` : 'ticketTypes';
      const message =
        error.extras.reason === 'addOnSoldOut'
          ? 'This add-on has sold out; register without it or try another.'
          : error.detail;
      return { kind: 'refused', errors: [{ field, message }] };
    }
    case 'invalidRequest':
    case 'invalidBody': {
      const errors = (error.extras.errors ?? []) as FormError[];
      return {
        kind: 'refused',
        errors: errors.map((e) => ({
          field: e.field.replace(/^attendees\./, 'person.').replace(/^(person\.\d+\.addOns)\..*$/, '$1'),
          message: e.message,
        })),
      };
    }
    default:
      throw error;
  }
}

function closedMessage(reason: 'formOff' | 'demonstration'): string {
  return reason === 'demonstration'
    ? 'Registrations are closed: this is the demonstration workspace, which is read-only.'
    : 'This event does not take registrations on this page.';
}

/** The caller the public form acts as: the event's workspace, no key, registration only. */
function publicContext(
  services: Services,
  origin: string,
  offer: SignUpOffer,
  scope: 'attendees:write' | 'orders:write',
): Ctx {
  return keylessContext(
    services,
    {
      workspaceId: offer.event.workspace_id,
      name: publicSignUpName,
      createdUtc: offer.event.created_utc,
      demonstration: offer.closed === 'demonstration',
      // people:read: the registrant is shown their own tickets' codes.
      scopes: [scope, 'people:read'],
      publicSignUp: true,
    },
    origin,
  );
}

/** The tickets of an event with these codes, for the page a registration ends on (the codes are its key). */
export function registeredTickets(db: Db, eventId: string, codes: string[]): Promise<ShownTicket[]> {
  const wellFormed = codes.filter((c) => /^[A-Z2-7]{26}$/.test(c)).slice(0, 50);
  return wellFormed.length === 0 ? Promise.resolve([]) : shownTickets(db, { eventId, codes: wellFormed });
}

/** The tickets of an order just made free on the form, for the page it ends on. */
async function ticketsOf(
  db: Db,
  orderId: string,
): Promise<{ name: string; ticketType: string; code: string }[]> {
  const tickets = await shownTickets(db, { orderId });
  return tickets.map((t) => ({ name: t.holder ?? '', ticketType: t.ticketType, code: t.code }));
}
