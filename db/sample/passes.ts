// Sample passes: a season pass of the Tokyo frontend community (a date range of its series,
// sold on the meetup, admitting to the meetup and the summit) and a bundle sold on the summit
// (a list: summit and forum). Each holder holds a real order on the sales event, in statuses
// paid, free, pending/transfer (payment under way), refunded and cancelled; the refunded and
// cancelled holders have ended; some active holders opted out of one event, and an ended one
// did too (which no count may include).
import type { Db } from '../connect';
import type { SampleContext } from './context';
import { exampleEmail } from './random';
import { changeStamp, sampleUtc } from './stamps';

interface HolderSpec {
  key: string;
  firstName: string;
  lastName: string;
  orderStatus: 'paid' | 'free' | 'pending' | 'transfer' | 'refunded' | 'cancelled';
  /** Ended holders: why. */
  ended?: 'refunded' | 'cancelled';
  /** Event keys the holder said they will not come to. */
  optOuts?: string[];
}

interface PassSpec {
  key: string;
  kind: 'season' | 'bundle';
  name: string;
  description: string;
  salesEvent: string;
  currency: string;
  language: string;
  priceMinor: number;
  vatRate: number;
  capacity: number;
  scope: 'range' | 'list';
  community?: string;
  series?: string;
  /** Days from the sample's day of a range's first and last day. */
  range?: [number, number];
  refundRule: 'beforeFirst' | 'organiser' | 'none';
  events: string[];
  /** Order references: six characters outside the sales sample's alphabet, so never taken. */
  referencePrefix: string;
  holders: HolderSpec[];
}

const passes: PassSpec[] = [
  {
    key: 'season',
    kind: 'season',
    name: 'Tokyo Frontend season pass 2027',
    description: 'Every meetup of the season, plus a seat at the Nordic Product Summit.',
    salesEvent: 'meetup',
    currency: 'JPY',
    language: 'ja',
    priceMinor: 12000,
    vatRate: 10,
    capacity: 30,
    scope: 'range',
    community: 'tokyo-frontend',
    series: 'tokyo-frontend-2027',
    range: [1, 180],
    refundRule: 'beforeFirst',
    events: ['meetup', 'summit'],
    referencePrefix: 'SEAS0',
    holders: [
      { key: 'h1', firstName: 'Aiko', lastName: 'Nakamura', orderStatus: 'paid', optOuts: ['summit'] },
      { key: 'h2', firstName: 'Kenji', lastName: 'Sato', orderStatus: 'paid' },
      { key: 'h3', firstName: 'Yuki', lastName: 'Tanaka', orderStatus: 'free' },
      { key: 'h4', firstName: 'Hana', lastName: 'Berg', orderStatus: 'pending' },
      {
        key: 'h5',
        firstName: 'Noah',
        lastName: 'Lindqvist',
        orderStatus: 'refunded',
        ended: 'refunded',
        optOuts: ['meetup'],
      },
    ],
  },
  {
    key: 'bundle',
    kind: 'bundle',
    name: 'Summit and Forum bundle',
    description: 'The Nordic Product Summit and the Gulf Data Forum at one price.',
    salesEvent: 'summit',
    currency: 'NOK',
    language: 'en',
    priceMinor: 599000,
    vatRate: 12,
    capacity: 40,
    scope: 'list',
    refundRule: 'organiser',
    events: ['summit', 'forum'],
    referencePrefix: 'BNDL0',
    holders: [
      { key: 'h1', firstName: 'Ingrid', lastName: 'Hansen', orderStatus: 'paid' },
      { key: 'h2', firstName: 'Omar', lastName: 'Haddad', orderStatus: 'paid', optOuts: ['forum'] },
      { key: 'h3', firstName: 'Sofia', lastName: 'Costa', orderStatus: 'transfer' },
      { key: 'h4', firstName: 'Elif', lastName: 'Novak', orderStatus: 'free' },
      { key: 'h5', firstName: 'Tomás', lastName: 'Ferreira', orderStatus: 'cancelled', ended: 'cancelled' },
    ],
  },
];

export async function insertSamplePasses(db: Db, sample: SampleContext): Promise<void> {
  for (const p of passes) {
    await insertPass(db, sample, p);
    for (const [n, h] of p.holders.entries()) await insertHolder(db, sample, p, n, h);
  }
}

/** The pass, on sale since a month ago, with the events it admits to. */
async function insertPass(db: Db, sample: SampleContext, p: PassSpec): Promise<void> {
  const passId = sample.id(`pass/${p.key}`);
  const created = sampleUtc(sample, -30, 9 * 60);
  const date = (day: number) => sampleUtc(sample, day).slice(0, 10);
  await db
    .insertInto('passes')
    .values({
      id: passId,
      workspace_id: sample.workspaceId,
      kind: p.kind,
      community_id: p.community ? sample.id(`community/${p.community}`) : null,
      sales_event_id: sample.id(`event/${p.salesEvent}`),
      name: p.name,
      description: p.description,
      price_minor: p.priceMinor,
      vat_rate: p.vatRate,
      currency: p.currency,
      capacity: p.capacity,
      scope: p.scope,
      series_id: p.series ? sample.id(`series/${p.series}`) : null,
      from_date: p.range ? date(p.range[0]) : null,
      to_date: p.range ? date(p.range[1]) : null,
      sales_start_utc: created,
      sales_end_utc: null,
      refund_rule: p.refundRule,
      status: 'onSale',
      ...(await changeStamp(db, created)),
    })
    .execute();
  for (const e of p.events) {
    await db
      .insertInto('pass_events')
      .values({ pass_id: passId, event_id: sample.id(`event/${e}`), source: p.scope })
      .execute();
  }
}

/**
 * The n-th holder, with the order on the sales event they took the pass with and the events they
 * opted out of. One holder every three days, the first a month ago; ended holders ended the day after.
 */
async function insertHolder(db: Db, sample: SampleContext, p: PassSpec, n: number, h: HolderSpec) {
  const takenUtc = sampleUtc(sample, -28 + n * 3, 9 * 60);
  const endedUtc = h.ended ? sampleUtc(sample, -27 + n * 3, 9 * 60) : null;
  const orderId = await insertHolderOrder(db, sample, p, n, h, takenUtc, endedUtc);
  const holderId = sample.id(`passholder/${p.key}/${h.key}`);
  await db
    .insertInto('pass_holders')
    .values({
      id: holderId,
      workspace_id: sample.workspaceId,
      pass_id: sample.id(`pass/${p.key}`),
      order_id: orderId,
      status: h.ended ? 'ended' : 'active',
      ended_reason: h.ended ?? null,
      ended_utc: endedUtc,
      first_name: h.firstName,
      last_name: h.lastName,
      email: exampleEmail(`${h.firstName}.${h.lastName}`),
      erased: 0,
      ...(await changeStamp(db, takenUtc, endedUtc ?? takenUtc)),
    })
    .execute();
  for (const e of h.optOuts ?? []) {
    await db
      .insertInto('pass_opt_outs')
      .values({ holder_id: holderId, event_id: sample.id(`event/${e}`) })
      .execute();
  }
}

/** The order a holder took the pass with; its id. */
async function insertHolderOrder(
  db: Db,
  sample: SampleContext,
  p: PassSpec,
  n: number,
  h: HolderSpec,
  takenUtc: string,
  endedUtc: string | null,
): Promise<string> {
  const orderId = sample.id(`order/pass/${p.key}/${h.key}`);
  const total = h.orderStatus === 'free' ? 0 : p.priceMinor;
  const paidUtc = h.orderStatus === 'paid' || h.orderStatus === 'refunded' ? takenUtc : null;
  await db
    .insertInto('orders')
    .values({
      id: orderId,
      workspace_id: sample.workspaceId,
      event_id: sample.id(`event/${p.salesEvent}`),
      reference: `${p.referencePrefix}${n + 1}`,
      status: h.orderStatus,
      buyer_name: `${h.firstName} ${h.lastName}`,
      buyer_email: exampleEmail(`${h.firstName}.${h.lastName}`),
      buyer_company: null,
      language: p.language,
      total_minor: total,
      vat_minor: Math.round(total - total / (1 + p.vatRate / 100)),
      currency: p.currency,
      payment_provider: paidUtc ? 'stripe' : null,
      paid_utc: paidUtc,
      source: 'registration',
      discount_code_id: null,
      erased: 0,
      ...(await changeStamp(db, takenUtc, endedUtc ?? takenUtc)),
    })
    .execute();
  return orderId;
}
