// Sample sales: ticket types (one with few places, one hidden, one needing approval, a crew
// type), add-ons, discount codes, questions, and orders in every status and three currencies,
// with attendees (some cancelled, some unpaid, one erased). Taken counts match the tickets.

import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import { newTicketCode } from '../ticket-codes';
import type { Flag, QuestionKind } from '../values';
import type { SampleContext } from './context';
import { companies, firstNames, jobTitles, lastNames, SampleRandom } from './random';

interface TypeSpec {
  key: string;
  name: string;
  price: number;
  vat: number;
  capacity: number | null;
  visibility?: 'public' | 'code' | 'hidden';
  approval?: boolean;
  crew?: boolean;
  maxPerOrder?: number;
  includes?: string[];
  weight: number;
}

interface EventSales {
  event: string;
  /** Days (relative to the sample day) over which orders were made. */
  orderDays: [number, number];
  orders: number;
  types: TypeSpec[];
  addOns: { key: string; name: string; price: number; vat: number; capacity: number | null }[];
  codes: { code: string; percent?: number; amount?: number; maxUses?: number }[];
  questions: boolean;
}

const plan: EventSales[] = [
  {
    event: 'summit',
    orderDays: [-40, -1],
    orders: 120,
    types: [
      { key: 'early', name: 'Early bird', price: 249000, vat: 12, capacity: 150, weight: 5 },
      { key: 'standard', name: 'Standard', price: 349000, vat: 12, capacity: 500, weight: 8 },
      {
        key: 'vip',
        name: 'VIP dinner pass',
        price: 799000,
        vat: 12,
        capacity: 12,
        maxPerOrder: 2,
        includes: ['dinner'],
        weight: 1,
      },
      { key: 'student', name: 'Student', price: 99000, vat: 12, capacity: 40, approval: true, weight: 2 },
      { key: 'speaker', name: 'Speaker', price: 0, vat: 0, capacity: null, visibility: 'hidden', weight: 1 },
      { key: 'partner', name: 'Partner', price: 0, vat: 0, capacity: 60, visibility: 'code', weight: 1 },
      {
        key: 'crew',
        name: 'Crew',
        price: 0,
        vat: 0,
        capacity: null,
        visibility: 'hidden',
        crew: true,
        weight: 1,
      },
    ],
    addOns: [
      { key: 'workshop', name: 'Workshop: product discovery', price: 90000, vat: 25, capacity: 30 },
      { key: 'dinner', name: 'Conference dinner', price: 120000, vat: 25, capacity: 150 },
    ],
    codes: [
      { code: 'NORDIC10', percent: 10, maxUses: 100 },
      { code: 'PARTNER500', amount: 50000 },
    ],
    questions: true,
  },
  {
    event: 'meetup',
    orderDays: [-20, -1],
    orders: 40,
    types: [
      { key: 'general', name: 'General admission', price: 1500, vat: 10, capacity: 80, weight: 9 },
      {
        key: 'sponsor',
        name: 'Sponsor guest',
        price: 0,
        vat: 0,
        capacity: null,
        visibility: 'hidden',
        weight: 1,
      },
    ],
    addOns: [{ key: 'pizza', name: 'Pizza and drinks', price: 800, vat: 10, capacity: null }],
    codes: [{ code: 'FRONTEND', percent: 20 }],
    questions: false,
  },
  {
    event: 'forum',
    orderDays: [-15, -1],
    orders: 20,
    types: [
      { key: 'delegate', name: 'Delegate', price: 45500, vat: 0, capacity: 200, weight: 4 },
      { key: 'academic', name: 'Academic', price: 12750, vat: 0, capacity: 30, approval: true, weight: 1 },
    ],
    addOns: [],
    codes: [{ code: 'GULF-EARLY', amount: 5000, maxUses: 25 }],
    questions: false,
  },
  {
    event: 'remote',
    orderDays: [-25, -1],
    orders: 60,
    types: [
      { key: 'free', name: 'Online ticket', price: 0, vat: 0, capacity: null, weight: 8 },
      { key: 'supporter', name: 'Supporter', price: 2500, vat: 21, capacity: null, weight: 2 },
    ],
    addOns: [],
    codes: [],
    questions: false,
  },
  {
    event: 'past',
    orderDays: [-90, -31],
    orders: 80,
    types: [
      { key: 'day', name: 'Day pass', price: 12000, vat: 23, capacity: 400, weight: 6 },
      { key: 'week', name: 'Week pass', price: 29000, vat: 23, capacity: 150, weight: 3 },
    ],
    addOns: [{ key: 'tour', name: 'Studio tour', price: 2500, vat: 23, capacity: 40 }],
    codes: [],
    questions: false,
  },
];

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
function plainEmail(local: string): string {
  return `${local
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()}@example.com`;
}

const referenceAlphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export async function insertSampleSales(
  db: Db,
  sample: SampleContext,
  currencies: Map<string, { currency: string; language: string }>,
): Promise<void> {
  const random = new SampleRandom(20261123);
  const at = (day: number, minutes: number) =>
    new Date(sample.day0.getTime() + day * 86_400_000 + minutes * 60_000).toISOString();
  const created = at(-60, 9 * 60);
  const stamp = async () => ({
    created_utc: created,
    updated_utc: created,
    change_seq: await nextChangeSeq(db),
  });
  const references = new Set<string>();
  let erasedOne = false;

  for (const sales of plan) {
    const eventId = sample.id(`event/${sales.event}`);
    const { currency, language } = currencies.get(sales.event)!;
    const addOnIds = new Map(sales.addOns.map((a) => [a.key, sample.id(`addon/${sales.event}/${a.key}`)]));
    const addOnTaken = new Map<string, number>();
    for (const [i, a] of sales.addOns.entries()) {
      await db
        .insertInto('add_ons')
        .values({
          id: addOnIds.get(a.key)!,
          workspace_id: sample.workspaceId,
          event_id: eventId,
          name: a.name,
          description: null,
          price_minor: a.price,
          vat_rate: a.vat,
          capacity: a.capacity,
          taken: 0,
          sort_order: i + 1,
          ...(await stamp()),
        })
        .execute();
    }
    const typeIds = new Map(sales.types.map((t) => [t.key, sample.id(`tickettype/${sales.event}/${t.key}`)]));
    for (const [i, t] of sales.types.entries()) {
      await db
        .insertInto('ticket_types')
        .values({
          id: typeIds.get(t.key)!,
          workspace_id: sample.workspaceId,
          event_id: eventId,
          name: t.name,
          description: t.crew ? 'For volunteers and staff.' : `${t.name} ticket.`,
          price_minor: t.price,
          vat_rate: t.vat,
          capacity: t.capacity,
          taken: 0,
          max_per_order: t.maxPerOrder ?? 10,
          visibility: t.visibility ?? 'public',
          access_code: t.visibility === 'code' ? 'PARTNER-2027' : null,
          requires_approval: t.approval ? 1 : 0,
          crew: t.crew ? 1 : 0,
          sales_start_utc: at(-60, 0),
          sales_end_utc: null,
          included_add_on_ids: JSON.stringify((t.includes ?? []).map((k) => addOnIds.get(k)!)),
          sort_order: i + 1,
          ...(await stamp()),
        })
        .execute();
    }
    for (const c of sales.codes) {
      await db
        .insertInto('discount_codes')
        .values({
          id: sample.id(`code/${sales.event}/${c.code}`),
          workspace_id: sample.workspaceId,
          event_id: eventId,
          code: c.code,
          code_key: c.code.toUpperCase(),
          percent: c.percent ?? null,
          amount_minor: c.amount ?? null,
          max_uses: c.maxUses ?? null,
          used: 0,
          valid_from_utc: null,
          valid_until_utc: null,
          ticket_type_ids: '[]',
          ...(await stamp()),
        })
        .execute();
    }
    const questionIds = sales.questions ? await insertQuestions(db, sample, eventId) : null;

    const taken = new Map<string, number>();
    for (let n = 0; n < sales.orders; n++) {
      const type = random.weighted(sales.types.map((t) => [t, t.weight] as const));
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
      if (holding.has(status) && capacityLeft < count) continue;
      const day = random.int(sales.orderDays[0], sales.orderDays[1]);
      const createdUtc = at(day, random.int(7 * 60, 21 * 60));
      let reference = '';
      do {
        reference = Array.from(
          { length: 6 },
          () => referenceAlphabet[random.int(0, referenceAlphabet.length - 1)],
        ).join('');
      } while (references.has(reference));
      references.add(reference);
      const buyerFirst = random.pick(firstNames);
      const buyerLast = random.pick(lastNames);
      const buyerEmail = plainEmail(`${buyerFirst}.${buyerLast}.${sales.event}${n}`);
      // Included add-ons are part of the ticket's price (a bundle).
      const included = (type.includes ?? []).map((k) => sales.addOns.find((a) => a.key === k)!);
      const total = type.price * count;
      const vat = Math.round(total - total / (1 + type.vat / 100));
      const orderId = sample.id(`order/${sales.event}/${n}`);
      const paidUtc =
        status === 'paid' || status === 'refunded' ? at(day, random.int(21 * 60, 22 * 60)) : null;
      const cancelledUtc = at(day, 23 * 60);
      // One buyer erased their data: their first ticket and their order keep nothing personal.
      const erasedBuyer = !erasedOne && sales.event === 'summit' && status === 'paid' && n > 10;
      if (erasedBuyer) erasedOne = true;
      await db
        .insertInto('orders')
        .values({
          id: orderId,
          workspace_id: sample.workspaceId,
          event_id: eventId,
          reference,
          status,
          buyer_name: erasedBuyer ? null : `${buyerFirst} ${buyerLast}`,
          buyer_email: erasedBuyer ? null : buyerEmail,
          buyer_company: erasedBuyer ? null : random.pick(companies),
          language,
          total_minor: total,
          vat_minor: vat,
          currency,
          payment_provider: paidUtc ? random.pick(['stripe', 'vipps', 'paypal']) : null,
          paid_utc: paidUtc,
          source: random.weighted([
            ['registration', 8],
            ['workspace', 1],
            ['door', 1],
          ] as const),
          discount_code_id: null,
          erased: erasedBuyer ? 1 : 0,
          created_utc: createdUtc,
          updated_utc: paidUtc ?? createdUtc,
          change_seq: await nextChangeSeq(db),
        })
        .execute();
      if (holding.has(status)) taken.set(type.key, (taken.get(type.key) ?? 0) + count);
      for (let a = 0; a < count; a++) {
        const first = a === 0 ? buyerFirst : random.pick(firstNames);
        const last = a === 0 ? buyerLast : random.pick(lastNames);
        const cancelled = status === 'cancelled' || (holding.has(status) && random.next() < 0.04);
        const erase = erasedBuyer && a === 0;
        if (cancelled && holding.has(status)) taken.set(type.key, (taken.get(type.key) ?? 1) - 1);
        const attendeeId = sample.id(`attendee/${sales.event}/${n}/${a}`);
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
            event_id: eventId,
            order_id: orderId,
            ticket_type_id: typeIds.get(type.key)!,
            first_name: erase ? null : first,
            last_name: erase ? null : last,
            email: erase
              ? null
              : a === 0
                ? buyerEmail
                : plainEmail(`${first}.${last}.${sales.event}${n}-${a}`),
            company: erase ? null : random.pick(companies),
            job_title: erase ? null : random.pick(jobTitles),
            language,
            answers,
            status: cancelled ? 'cancelled' : 'active',
            checked_in_utc: null,
            cancelled_utc: cancelled ? cancelledUtc : null,
            erased: erase ? 1 : 0,
            // Random as every ticket's: a code is a credential, even a sample's.
            ticket_code: newTicketCode(),
            created_utc: createdUtc,
            updated_utc: cancelled ? cancelledUtc : (paidUtc ?? createdUtc),
            change_seq: await nextChangeSeq(db),
          })
          .execute();
        if (included.length > 0 && !cancelled && holding.has(status)) {
          for (const addOn of included) {
            const addOnId = addOnIds.get(addOn.key)!;
            await db
              .insertInto('attendee_add_ons')
              .values({ attendee_id: attendeeId, add_on_id: addOnId, quantity: 1 })
              .execute();
            addOnTaken.set(addOnId, (addOnTaken.get(addOnId) ?? 0) + 1);
          }
        }
      }
    }
    for (const [key, n] of taken)
      await db.updateTable('ticket_types').set({ taken: n }).where('id', '=', typeIds.get(key)!).execute();
    for (const [id, n] of addOnTaken)
      await db.updateTable('add_ons').set({ taken: n }).where('id', '=', id).execute();
  }
}

async function insertQuestions(
  db: Db,
  sample: SampleContext,
  eventId: string,
): Promise<{ diet: string; size: string }> {
  const q = (key: string) => sample.id(`question/${eventId}/${key}`);
  const rows: {
    key: string;
    label: Record<string, string>;
    kind: QuestionKind;
    required: Flag;
    options: { value: string; label: Record<string, string> }[];
    max?: number;
  }[] = [
    {
      key: 'diet',
      label: { en: 'Dietary needs', nb: 'Kostbehov' },
      kind: 'choice',
      required: 1,
      options: [
        { value: 'none', label: { en: 'None', nb: 'Ingen' } },
        { value: 'vegetarian', label: { en: 'Vegetarian', nb: 'Vegetar' } },
        { value: 'vegan', label: { en: 'Vegan', nb: 'Veganer' } },
        { value: 'glutenFree', label: { en: 'Gluten free', nb: 'Glutenfri' } },
      ],
    },
    {
      key: 'size',
      label: { en: 'T-shirt size', nb: 'T-skjortestørrelse' },
      kind: 'choice',
      required: 0,
      options: ['S', 'M', 'L', 'XL'].map((s) => ({ value: s, label: { en: s, nb: s } })),
    },
    {
      key: 'learn',
      label: { en: 'What do you hope to learn?', nb: 'Hva håper du å lære?' },
      kind: 'longText',
      required: 0,
      options: [],
      max: 1000,
    },
    {
      key: 'newsletter',
      label: { en: 'Send me the newsletter', nb: 'Send meg nyhetsbrevet' },
      kind: 'checkbox',
      required: 0,
      options: [],
    },
    {
      key: 'badge',
      label: { en: 'Name on badge', nb: 'Navn på navneskilt' },
      kind: 'text',
      required: 0,
      options: [],
      max: 40,
    },
  ];
  for (const [i, r] of rows.entries()) {
    await db
      .insertInto('questions')
      .values({
        id: q(r.key),
        workspace_id: sample.workspaceId,
        event_id: eventId,
        label: JSON.stringify(r.label),
        kind: r.kind,
        required: r.required,
        options: JSON.stringify(r.options),
        max_length: r.max ?? null,
        ticket_type_ids: '[]',
        sort_order: i + 1,
      })
      .execute();
  }
  return { diet: q('diet'), size: q('size') };
}
