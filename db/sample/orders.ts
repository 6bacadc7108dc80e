// Sample orders and their tickets, for the events db/sample/sales.ts plans: each order is drawn in
// turn from one seeded generator (ticket type, status, size, day, reference, buyer, then its
// tickets), so the data is the same on every run as long as the draws keep their order. An order
// that would overfill its ticket type is skipped; the types' and add-ons' taken counts match the
// tickets made.
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import { newTicketCode } from '../ticket-codes';
import type { SampleContext } from './context';
import { companies, exampleEmail, firstNames, jobTitles, lastNames, SampleRandom } from './random';
import { sampleUtc } from './stamps';

/** What an order needs of its ticket type. */
export interface OrderedType {
  key: string;
  price: number;
  vat: number;
  capacity: number | null;
  maxPerOrder?: number;
  /** Add-ons bundled in the ticket's price, by key. */
  includes?: string[];
  /** How often it is chosen, against the event's other types. */
  weight: number;
}

/** An event's orders: how many are drawn, over which days (from the sample's day), of which types. */
export interface EventOrders {
  event: string;
  orderDays: [number, number];
  orders: number;
  types: OrderedType[];
}

/** The event's ticket types, add-ons and questions as made, by key, and what its orders are in. */
export interface EventCatalogue {
  eventId: string;
  currency: string;
  language: string;
  typeIds: Map<string, string>;
  addOnIds: Map<string, string>;
  questionIds: { diet: string; size: string } | null;
}

/** What every event's orders share: the generator, the references given, whether a buyer erased their data. */
export interface OrderDraws {
  random: SampleRandom;
  references: Set<string>;
  erasedOne: boolean;
}

export const newOrderDraws = (): OrderDraws => ({
  random: new SampleRandom(20261123),
  references: new Set(),
  erasedOne: false,
});

/** Places taken, by ticket type key or add-on id. */
type Taken = Map<string, number>;

/** An order as drawn, before it is written. */
interface DrawnOrder {
  n: number;
  type: OrderedType;
  status: (typeof statusWeights)[number][0];
  count: number;
  day: number;
  createdUtc: string;
  reference: string;
  buyerFirst: string;
  buyerLast: string;
  buyerEmail: string;
  paidUtc: string | null;
  /** The buyer who erased their data: their first ticket and their order keep nothing personal. */
  erasedBuyer: boolean;
}

const statusWeights = [
  ['paid', 60],
  ['free', 8],
  ['pending', 6],
  ['onAccount', 3],
  ['transfer', 3],
  ['requested', 3],
  ['declined', 2],
  ['cancelled', 4],
  ['expired', 3],
  ['refunded', 2],
] as const;
const holding = new Set(['pending', 'paid', 'free', 'onAccount', 'transfer', 'requested']);

const referenceAlphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** Draws and writes the event's orders with their tickets, then the taken counts. */
export async function insertSampleOrders(
  db: Db,
  sample: SampleContext,
  draws: OrderDraws,
  plan: EventOrders,
  catalogue: EventCatalogue,
): Promise<void> {
  const taken: Taken = new Map();
  const addOnTaken: Taken = new Map();
  for (let n = 0; n < plan.orders; n++) {
    const order = drawOrder(sample, draws, plan, n, taken);
    if (!order) continue;
    await insertOrder(db, sample, draws.random, plan, catalogue, order);
    if (holding.has(order.status)) taken.set(order.type.key, (taken.get(order.type.key) ?? 0) + order.count);
    await insertTickets(db, sample, draws.random, plan, catalogue, order, { taken, addOnTaken });
  }
  for (const [key, n] of taken)
    await db
      .updateTable('ticket_types')
      .set({ taken: n })
      .where('id', '=', catalogue.typeIds.get(key)!)
      .execute();
  for (const [id, n] of addOnTaken)
    await db.updateTable('add_ons').set({ taken: n }).where('id', '=', id).execute();
}

/** The n-th order of the event, or null where it would overfill its ticket type. */
function drawOrder(
  sample: SampleContext,
  draws: OrderDraws,
  plan: EventOrders,
  n: number,
  taken: Taken,
): DrawnOrder | null {
  const { random } = draws;
  const type = random.weighted(plan.types.map((t) => [t, t.weight] as const));
  const status =
    type.price === 0
      ? random.next() < 0.9
        ? 'free'
        : 'cancelled'
      : random.weighted(statusWeights.filter(([s]) => s !== 'free'));
  const count = Math.min(
    type.maxPerOrder ?? 10,
    random.weighted([
      [1, 6],
      [2, 3],
      [3, 1],
    ] as const),
  );
  const capacityLeft = type.capacity === null ? Infinity : type.capacity - (taken.get(type.key) ?? 0);
  if (holding.has(status) && capacityLeft < count) return null;
  const day = random.int(plan.orderDays[0], plan.orderDays[1]);
  const createdUtc = sampleUtc(sample, day, random.int(7 * 60, 21 * 60));
  let reference = '';
  do {
    reference = Array.from(
      { length: 6 },
      () => referenceAlphabet[random.int(0, referenceAlphabet.length - 1)],
    ).join('');
  } while (draws.references.has(reference));
  draws.references.add(reference);
  const buyerFirst = random.pick(firstNames);
  const buyerLast = random.pick(lastNames);
  const buyerEmail = exampleEmail(`${buyerFirst}.${buyerLast}.${plan.event}${n}`);
  const paidUtc =
    status === 'paid' || status === 'refunded' ? sampleUtc(sample, day, random.int(21 * 60, 22 * 60)) : null;
  const erasedBuyer = !draws.erasedOne && plan.event === 'summit' && status === 'paid' && n > 10;
  if (erasedBuyer) draws.erasedOne = true;
  return {
    n,
    type,
    status,
    count,
    day,
    createdUtc,
    reference,
    buyerFirst,
    buyerLast,
    buyerEmail,
    paidUtc,
    erasedBuyer,
  };
}

async function insertOrder(
  db: Db,
  sample: SampleContext,
  random: SampleRandom,
  plan: EventOrders,
  catalogue: EventCatalogue,
  order: DrawnOrder,
): Promise<void> {
  const { type, count, erasedBuyer, paidUtc } = order;
  const total = type.price * count;
  await db
    .insertInto('orders')
    .values({
      id: sample.id(`order/${plan.event}/${order.n}`),
      workspace_id: sample.workspaceId,
      event_id: catalogue.eventId,
      reference: order.reference,
      status: order.status,
      buyer_name: erasedBuyer ? null : `${order.buyerFirst} ${order.buyerLast}`,
      buyer_email: erasedBuyer ? null : order.buyerEmail,
      buyer_company: erasedBuyer ? null : random.pick(companies),
      language: catalogue.language,
      total_minor: total,
      vat_minor: Math.round(total - total / (1 + type.vat / 100)),
      currency: catalogue.currency,
      payment_provider: paidUtc ? random.pick(['stripe', 'vipps', 'paypal']) : null,
      paid_utc: paidUtc,
      source: random.weighted([
        ['registration', 8],
        ['workspace', 1],
        ['door', 1],
      ] as const),
      discount_code_id: null,
      // A refunded order was paid back whole.
      refunded_minor: order.status === 'refunded' ? total : 0,
      erased: erasedBuyer ? 1 : 0,
      created_utc: order.createdUtc,
      updated_utc: paidUtc ?? order.createdUtc,
      change_seq: await nextChangeSeq(db),
    })
    .execute();
}

/** The order's tickets, the buyer's first (some cancelled since), with the add-ons their type bundles. */
async function insertTickets(
  db: Db,
  sample: SampleContext,
  random: SampleRandom,
  plan: EventOrders,
  catalogue: EventCatalogue,
  order: DrawnOrder,
  counts: { taken: Taken; addOnTaken: Taken },
): Promise<void> {
  const { type, status, n } = order;
  const cancelledUtc = sampleUtc(sample, order.day, 23 * 60);
  const { questionIds } = catalogue;
  for (let a = 0; a < order.count; a++) {
    const first = a === 0 ? order.buyerFirst : random.pick(firstNames);
    const last = a === 0 ? order.buyerLast : random.pick(lastNames);
    const cancelled = status === 'cancelled' || (holding.has(status) && random.next() < 0.04);
    const erase = order.erasedBuyer && a === 0;
    if (cancelled && holding.has(status)) counts.taken.set(type.key, (counts.taken.get(type.key) ?? 1) - 1);
    const attendeeId = sample.id(`attendee/${plan.event}/${n}/${a}`);
    const answers =
      questionIds && !erase
        ? JSON.stringify({
            [questionIds.diet]: random.pick(['none', 'vegetarian', 'vegan', 'glutenFree']),
            [questionIds.size]: random.pick(['S', 'M', 'L', 'XL']),
          })
        : null;
    await db
      .insertInto('attendees')
      .values({
        id: attendeeId,
        workspace_id: sample.workspaceId,
        event_id: catalogue.eventId,
        order_id: sample.id(`order/${plan.event}/${n}`),
        ticket_type_id: catalogue.typeIds.get(type.key)!,
        first_name: erase ? null : first,
        last_name: erase ? null : last,
        email: erase
          ? null
          : a === 0
            ? order.buyerEmail
            : exampleEmail(`${first}.${last}.${plan.event}${n}-${a}`),
        company: erase ? null : random.pick(companies),
        job_title: erase ? null : random.pick(jobTitles),
        language: catalogue.language,
        answers,
        status: cancelled ? 'cancelled' : 'active',
        checked_in_utc: null,
        cancelled_utc: cancelled ? cancelledUtc : null,
        erased: erase ? 1 : 0,
        // Random as every ticket's: a code is a credential, even a sample's.
        ticket_code: newTicketCode(),
        created_utc: order.createdUtc,
        updated_utc: cancelled ? cancelledUtc : (order.paidUtc ?? order.createdUtc),
        change_seq: await nextChangeSeq(db),
      })
      .execute();
    // Included add-ons are part of the ticket's price (a bundle).
    if (cancelled || !holding.has(status)) continue;
    for (const key of type.includes ?? []) {
      const addOnId = catalogue.addOnIds.get(key)!;
      await db
        .insertInto('attendee_add_ons')
        .values({ attendee_id: attendeeId, add_on_id: addOnId, quantity: 1 })
        .execute();
      counts.addOnTaken.set(addOnId, (counts.addOnTaken.get(addOnId) ?? 0) + 1);
    }
  }
}
