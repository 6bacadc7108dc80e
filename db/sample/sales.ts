// Sample sales: ticket types (one with few places, one hidden, one needing approval, a crew
// type), add-ons, discount codes, questions, and orders in every status and three currencies,
// with attendees (some cancelled, some unpaid, one erased). Taken counts match the tickets.

import type { Db } from '../connect';
import type { Flag, QuestionKind } from '../values';
import type { SampleContext } from './context';
import { type EventOrders, insertSampleOrders, newOrderDraws, type OrderedType } from './orders';
import { changeStamp, sampleUtc } from './stamps';

interface TypeSpec extends OrderedType {
  name: string;
  visibility?: 'public' | 'code' | 'hidden';
  approval?: boolean;
  crew?: boolean;
}

interface EventSales extends EventOrders {
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

export async function insertSampleSales(
  db: Db,
  sample: SampleContext,
  currencies: Map<string, { currency: string; language: string }>,
): Promise<void> {
  // One generator for every event's orders, in the plan's order: the draws depend on it.
  const draws = newOrderDraws();
  for (const sales of plan) {
    const eventId = sample.id(`event/${sales.event}`);
    const addOnIds = await insertSampleAddOns(db, sample, sales);
    const typeIds = await insertSampleTicketTypes(db, sample, sales, addOnIds);
    await insertSampleDiscountCodes(db, sample, sales);
    const questionIds = sales.questions ? await insertQuestions(db, sample, eventId) : null;
    const { currency, language } = currencies.get(sales.event)!;
    await insertSampleOrders(db, sample, draws, sales, {
      eventId,
      currency,
      language,
      typeIds,
      addOnIds,
      questionIds,
    });
  }
}

/** The ticket types, add-ons and discount codes were all made two months ago, when sales opened. */
const catalogueStamp = (db: Db, sample: SampleContext) => changeStamp(db, sampleUtc(sample, -60, 9 * 60));

/** The event's add-ons, none taken yet (the orders take them); their ids by key. */
async function insertSampleAddOns(db: Db, sample: SampleContext, sales: EventSales) {
  const eventId = sample.id(`event/${sales.event}`);
  const addOnIds = new Map(sales.addOns.map((a) => [a.key, sample.id(`addon/${sales.event}/${a.key}`)]));
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
        ...(await catalogueStamp(db, sample)),
      })
      .execute();
  }
  return addOnIds;
}

/** The event's ticket types, none taken yet (the orders take them); their ids by key. */
async function insertSampleTicketTypes(
  db: Db,
  sample: SampleContext,
  sales: EventSales,
  addOnIds: Map<string, string>,
) {
  const eventId = sample.id(`event/${sales.event}`);
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
        sales_start_utc: sampleUtc(sample, -60),
        sales_end_utc: null,
        included_add_on_ids: JSON.stringify((t.includes ?? []).map((k) => addOnIds.get(k)!)),
        sort_order: i + 1,
        ...(await catalogueStamp(db, sample)),
      })
      .execute();
  }
  return typeIds;
}

async function insertSampleDiscountCodes(db: Db, sample: SampleContext, sales: EventSales): Promise<void> {
  for (const c of sales.codes) {
    await db
      .insertInto('discount_codes')
      .values({
        id: sample.id(`code/${sales.event}/${c.code}`),
        workspace_id: sample.workspaceId,
        event_id: sample.id(`event/${sales.event}`),
        code: c.code,
        code_key: c.code.toUpperCase(),
        percent: c.percent ?? null,
        amount_minor: c.amount ?? null,
        max_uses: c.maxUses ?? null,
        used: 0,
        valid_from_utc: null,
        valid_until_utc: null,
        ticket_type_ids: '[]',
        ...(await catalogueStamp(db, sample)),
      })
      .execute();
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
