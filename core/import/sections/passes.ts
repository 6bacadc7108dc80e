// Import of season passes and bundles: what they admit (a date range or a list of the file's
// events), their holders with the order in the sales event that bought each place, and the events
// a holder said they will not come to.
import * as v from 'valibot';
import {
  holderEndedReasons,
  holderStatuses,
  passKinds,
  passRefundRules,
  passScopes,
  passStatuses,
} from '../../../db/values';
import { oneLine } from '../../platform/schemas';
import { amount, date, email, key, list, name, orNull, ref, utc, whole, words } from '../fields';
import type { ImportPlan } from '../plan';

export const holderFormat = v.strictObject({
  key: key('pass holder'),
  order: ref('order (in the sales event) that bought the place'),
  firstName: orNull(name('First name. Personal data.')),
  lastName: orNull(name('Last name. Personal data.')),
  email: orNull(email('Email address. Personal data.')),
  status: v.optional(v.picklist(holderStatuses), 'active'),
  endedReason: orNull(v.picklist(holderEndedReasons)),
  endedUtc: orNull(utc('When the holding ended')),
  optOuts: list(ref('event'), 'Keys of the events they said they will not come to.', 1000),
});

export const passFormat = v.strictObject({
  key: key('pass'),
  kind: v.picklist(passKinds),
  name: name('Name.'),
  description: orNull(words('Description.')),
  salesEvent: ref('event it is sold through (its orders buy the places; its currency prices it)'),
  community: orNull(ref('community')),
  price: v.optional(amount('Price, VAT included'), 0),
  vatRate: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(100)), 0),
  capacity: whole('Places.', 1),
  scope: v.picklist(passScopes),
  series: orNull(
    v.pipe(
      v.string(),
      oneLine,
      v.description('A name of your choosing for the series of events (season passes).'),
    ),
  ),
  fromDate: orNull(date('First day it admits, with scope range')),
  toDate: orNull(date('Last day it admits, with scope range')),
  salesStartUtc: orNull(utc('Sales open')),
  salesEndUtc: orNull(utc('Sales close')),
  refundRule: v.optional(v.picklist(passRefundRules), 'organiser'),
  status: v.optional(v.picklist(passStatuses), 'onSale'),
  events: list(ref('event'), 'Keys of the events it admits.', 1000),
  holders: list(holderFormat, 'Its holders.'),
});

export type PassInput = v.InferOutput<typeof passFormat>;
type HolderInput = PassInput['holders'][number];

export function planPass(
  plan: ImportPlan,
  p: PassInput,
  path: string,
  currencies: Map<string, string>,
): void {
  const id = plan.claim('pass', '', p.key, path);
  const currency = currencies.get(p.salesEvent);
  if ((p.scope === 'range') !== (p.fromDate !== null && p.toDate !== null))
    plan.issue(`${path}.fromDate`, 'A range pass has fromDate and toDate; a list pass has neither.');
  if (p.fromDate !== null && p.toDate !== null && p.toDate < p.fromDate)
    plan.issue(`${path}.toDate`, 'The last day comes on or after the first.');
  const [salesStart, salesEnd] = plan.period(p.salesStartUtc, p.salesEndUtc, path, [
    'salesStartUtc',
    'salesEndUtc',
  ]);
  plan.add(
    'passes',
    {
      id,
      workspace_id: plan.workspaceId,
      kind: p.kind,
      community_id: plan.refOrNull('community', '', p.community, `${path}.community`, 'community'),
      sales_event_id: plan.ref('event', '', p.salesEvent, `${path}.salesEvent`, 'event'),
      name: p.name,
      description: p.description,
      price_minor: currency === undefined ? 0 : plan.minor(p.price, currency, `${path}.price`),
      vat_rate: p.vatRate,
      currency: currency ?? '',
      capacity: p.capacity,
      scope: p.scope,
      series_id: p.series === null ? null : plan.id('series', '', p.series),
      from_date: p.fromDate,
      to_date: p.toDate,
      sales_start_utc: salesStart,
      sales_end_utc: salesEnd,
      refund_rule: p.refundRule,
      status: p.status,
    },
    path,
  );
  plan.setOf(
    'pass_events',
    'pass_id',
    id,
    p.events.map((e, i) => ({
      pass_id: id,
      event_id: plan.ref('event', '', e, `${path}.events[${i}]`, 'event'),
      source: p.scope,
    })),
  );
  if (p.holders.filter((h) => h.status === 'active').length > p.capacity)
    plan.issue(`${path}.capacity`, 'More active holders than the pass has places.');
  p.holders.forEach((h, i) => {
    planHolder(plan, p, id, h, `${path}.holders[${i}]`);
  });
}

/** A holder of a pass, with the events of the pass they said they will not come to. */
function planHolder(plan: ImportPlan, p: PassInput, passId: string, h: HolderInput, at: string): void {
  const holderId = plan.claim('passHolder', p.key, h.key, at);
  if ((h.status === 'ended') !== (h.endedReason !== null && h.endedUtc !== null))
    plan.issue(
      `${at}.endedReason`,
      'An ended holder has endedReason and endedUtc; an active one has neither.',
    );
  plan.add(
    'pass_holders',
    {
      id: holderId,
      workspace_id: plan.workspaceId,
      pass_id: passId,
      order_id: plan.ref('order', p.salesEvent, h.order, `${at}.order`, 'order of the sales event'),
      status: h.status,
      ended_reason: h.endedReason,
      ended_utc: plan.utcOrNull(h.endedUtc, `${at}.endedUtc`),
      first_name: h.firstName,
      last_name: h.lastName,
      email: h.email,
    },
    at,
    { erased: 0 },
  );
  plan.setOf(
    'pass_opt_outs',
    'holder_id',
    holderId,
    h.optOuts.map((e, j) => {
      if (!p.events.includes(e)) plan.issue(`${at}.optOuts[${j}]`, 'An event the pass does not admit.');
      return { holder_id: holderId, event_id: plan.ref('event', '', e, `${at}.optOuts[${j}]`, 'event') };
    }),
  );
}
