// Import of an event's orders with their tickets and the tickets' add-ons (the sales section's many
// rows, see ./sales.ts). An order's total and VAT are the sums of its tickets and add-ons unless the
// file gives them; a reference the file leaves out is made from the order's key, the same every time.
import { createHash } from 'node:crypto';
import { vatWithin } from '../../platform/money';
import { lineFault } from '../../platform/schemas';
import { newTicketCode } from '../../platform/ticket-codes';
import { type ImportPlan, json } from '../plan';
import { type EventScope, owned } from '../scope';
import type { OrderInput, SalesInput } from './sales-format';

/** An event's orders, gone through one at a time (core/import/stored-orders.ts). */
export type Orders = Iterable<OrderInput> & { references: ReadonlySet<string> };
/** The price of each ticket type and add-on, by `${table}/${key}`: an order adds them up. */
export type Prices = Map<string, { minor: number; vat: number }>;
type AttendeeInput = OrderInput['attendees'][number];

/** What every order of an event is planned with. */
interface OrderContext {
  defaultLanguage: string;
  prices: Prices;
  /** The references taken so far: the file's own, and those made for the orders before. */
  references: Set<string>;
  /** The id of each question of the event, by key. */
  questionIds: Map<string, string>;
  /** Whether an answer to each question may run over lines. */
  answerLines: Map<string, 'one' | 'multi'>;
}

/** An order's total and VAT, in minor units, as its tickets and add-ons add up. */
interface Sums {
  gross: number;
  vat: number;
}

const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A six-character reference made from the order's id, the same on every import of the file. */
function referenceFor(id: string, taken: Set<string>): string {
  for (let attempt = 0; ; attempt++) {
    const digest = createHash('sha256').update(`${id}/${attempt}`).digest();
    let reference = '';
    for (let i = 0; i < 6; i++) reference += alphabet[digest[i]! % alphabet.length];
    if (!taken.has(reference)) return reference;
  }
}

/** Plans the orders one at a time, pausing after each (its rows are then put away together). */
export function* planOrders(
  scope: EventScope,
  input: SalesInput,
  orders: Orders,
  defaultLanguage: string,
  prices: Prices,
): Generator<void> {
  const { plan, eventKey: ek } = scope;
  const context: OrderContext = {
    defaultLanguage,
    prices,
    references: new Set(orders.references),
    questionIds: new Map(input.questions.map((q) => [q.key, plan.id('question', ek, q.key)])),
    // A long text answer may run over lines; every other text answer is one line (issue 50).
    answerLines: new Map(
      input.questions.map((q) => [q.key, q.kind === 'longText' ? 'multi' : 'one'] as const),
    ),
  };
  let i = -1;
  for (const o of orders) {
    i++;
    planOrder(scope, o, `${scope.path}.orders[${i}]`, context);
    yield;
  }
}

function planOrder(scope: EventScope, o: OrderInput, path: string, context: OrderContext): void {
  const { plan, eventKey: ek, currency } = scope;
  const orderId = plan.claim('order', ek, o.key, path);
  const reference = o.reference ?? referenceFor(orderId, context.references);
  context.references.add(reference);
  const paidUtc = plan.utcOrNull(o.paidUtc, `${path}.paidUtc`);
  if ((o.status === 'paid') !== (paidUtc !== null) && o.status !== 'refunded')
    plan.issue(`${path}.paidUtc`, 'A paid order has paidUtc, and an unpaid one has none.');
  const createdUtc = o.createdUtc === undefined ? scope.now : plan.utc(o.createdUtc, `${path}.createdUtc`);
  const language = o.language ?? context.defaultLanguage;
  const sums: Sums = { gross: 0, vat: 0 };
  o.attendees.forEach((a, j) => {
    planAttendee(scope, a, `${path}.attendees[${j}]`, { orderId, language, context, sums });
  });
  plan.add(
    'orders',
    {
      ...owned(scope, orderId),
      reference,
      status: o.status,
      buyer_name: o.buyer.name,
      buyer_email: o.buyer.email,
      buyer_company: o.buyer.company,
      language,
      total_minor: o.total === undefined ? sums.gross : plan.minor(o.total, currency, `${path}.total`),
      vat_minor: o.vat === undefined ? sums.vat : plan.minor(o.vat, currency, `${path}.vat`),
      currency,
      payment_provider: o.paymentProvider,
      paid_utc: paidUtc,
      source: o.source,
      discount_code_id: plan.refOrNull(
        'discountCode',
        ek,
        o.discountCode,
        `${path}.discountCode`,
        'discount code',
      ),
    },
    path,
    { erased: 0, created_utc: createdUtc },
  );
}

/** A ticket with its add-ons; adds their prices to the order's sums. */
function planAttendee(
  scope: EventScope,
  a: AttendeeInput,
  at: string,
  {
    orderId,
    language,
    context,
    sums,
  }: { orderId: string; language: string; context: OrderContext; sums: Sums },
): void {
  const { plan, eventKey: ek } = scope;
  const attendeeId = plan.claim('attendee', ek, a.key, at);
  const ticketTypeId = plan.ref('ticketType', ek, a.ticketType, `${at}.ticketType`, 'ticket type');
  const price = context.prices.get(`ticket_types/${a.ticketType}`);
  if (price) {
    sums.gross += price.minor;
    sums.vat += vatWithin(price.minor, price.vat);
  }
  if ((a.status === 'cancelled') !== (a.cancelledUtc !== null))
    plan.issue(`${at}.cancelledUtc`, 'A cancelled ticket has cancelledUtc, and an active one has none.');
  plan.add(
    'attendees',
    {
      ...owned(scope, attendeeId),
      order_id: orderId,
      ticket_type_id: ticketTypeId,
      first_name: a.firstName,
      last_name: a.lastName,
      email: a.email,
      company: a.company,
      job_title: a.jobTitle,
      language: a.language ?? language,
      answers: a.answers === null ? null : answersOf(plan, a.answers, at, context),
      status: a.status,
      checked_in_utc: plan.utcOrNull(a.checkedInUtc, `${at}.checkedInUtc`),
      cancelled_utc: plan.utcOrNull(a.cancelledUtc, `${at}.cancelledUtc`),
    },
    at,
    { erased: 0, ticket_code: newTicketCode() },
  );
  plan.setOf(
    'attendee_add_ons',
    'attendee_id',
    attendeeId,
    a.addOns.map((x, k) => {
      const addOn = context.prices.get(`add_ons/${x.addOn}`);
      if (addOn) {
        sums.gross += addOn.minor * x.quantity;
        sums.vat += vatWithin(addOn.minor, addOn.vat) * x.quantity;
      }
      return {
        attendee_id: attendeeId,
        add_on_id: plan.ref('addOn', ek, x.addOn, `${at}.addOns[${k}].addOn`, 'add-on'),
        quantity: x.quantity,
      };
    }),
  );
}

/**
 * A ticket's answers as stored (keyed by question id); refuses an answer to no question of the event
 * and text with line breaks where the question takes one line.
 */
function answersOf(
  plan: ImportPlan,
  answers: Record<string, unknown>,
  at: string,
  { questionIds, answerLines }: OrderContext,
): string {
  return json(
    Object.fromEntries(
      Object.entries(answers).map(([k, answer]) => {
        const id = questionIds.get(k);
        if (!id) plan.issue(`${at}.answers.${k}`, `No question has the key "${k}" in this event.`);
        const lines = answerLines.get(k);
        const texts = Array.isArray(answer) ? answer : [answer];
        const fault = lines
          ? texts.map((t) => (typeof t === 'string' ? lineFault(t, lines) : null)).find(Boolean)
          : null;
        if (fault) plan.issue(`${at}.answers.${k}`, fault);
        return [id ?? k, answer];
      }),
    ),
  );
}
