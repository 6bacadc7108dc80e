import * as v from 'valibot';
import { invoicingSchema, loadInvoicing } from '../invoicing';
import { FieldErrors } from '../platform/field-errors';
import { isCurrency } from '../platform/money';
import { loadEvent, loadEventForChange } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { multiLine, oneLine, uuid } from '../platform/schemas';

const words = (max: number, description: string, lines = oneLine) =>
  v.pipe(v.string(), lines, v.trim(), v.minLength(1), v.maxLength(max), v.description(description));
const orNull = <T extends v.GenericSchema>(schema: T) => v.optional(v.nullable(schema));

export const updateInvoicing = defineOperation({
  name: 'updateInvoicing',
  title: 'Change invoicing settings',
  description:
    'Switches invoicing on or off for an event and sets the seller as printed, the number prefix, the footer and a second VAT currency with its exchange rate. Only later documents change: issued ones never do. Needs finance:write.',
  scope: 'finance:write',
  effect: 'write',
  changesEvent: true,
  extension: true,
  module: 'payments',
  repeatable: true,
  etag: true,
  ifMatch: {
    hold: heldRow('events', (input) => input.eventId),
    async current(ctx, input) {
      return loadInvoicing(ctx, await loadEvent(ctx, input.eventId));
    },
  },
  activity: { resourceType: 'event', resourceId: (input) => input.eventId, summary: () => 'invoicing' },
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    enabled: v.optional(v.pipe(v.boolean(), v.description('Paid orders with a total above 0 get invoices.'))),
    sellerName: v.optional(words(200, 'The organiser, as printed.')),
    sellerAddress: orNull(words(500, 'Its address, as printed; null clears it.', multiLine)),
    sellerVatNumber: orNull(words(40, 'Its VAT number; null clears it.')),
    sellerRegistration: orNull(words(100, 'Its company registration; null clears it.')),
    prefix: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(20),
        v.regex(/^[A-Za-z0-9/._-]*$/, 'Letters, digits and / . _ - only.'),
        v.description('What the numbers begin with, e.g. NS-2026-.'),
      ),
    ),
    footer: orNull(words(2000, 'Text printed at the foot; null clears it.', multiLine)),
    vatCurrency: orNull(
      v.pipe(
        v.string(),
        oneLine,
        v.description('A second ISO 4217 currency the VAT is stated in; null: none.'),
      ),
    ),
    vatExchangeRate: orNull(
      v.pipe(
        v.number(),
        v.gtValue(0),
        v.maxValue(1_000_000),
        v.description('Units of vatCurrency for one unit of the event currency; given with vatCurrency.'),
      ),
    ),
  }),
  output: invoicingSchema,
  async handler(ctx, input) {
    // The event's row locked for the change: the invoicing settings are one row an event, perhaps not written
    // yet, and a change writes all of it back from what it read: of two at once, one was lost.
    const event = await loadEventForChange(ctx, input.eventId);
    const current = await loadInvoicing(ctx, event);
    const pick = <K extends keyof typeof current>(key: K) =>
      (input[key as keyof typeof input] === undefined
        ? current[key]
        : input[key as keyof typeof input]) as (typeof current)[K];
    const next = {
      enabled: pick('enabled'),
      sellerName: pick('sellerName'),
      sellerAddress: pick('sellerAddress'),
      sellerVatNumber: pick('sellerVatNumber'),
      sellerRegistration: pick('sellerRegistration'),
      prefix: pick('prefix'),
      footer: pick('footer'),
      vatCurrency: pick('vatCurrency'),
      vatExchangeRate: pick('vatExchangeRate'),
    };
    const errors = new FieldErrors();
    if (next.vatCurrency !== null && !isCurrency(next.vatCurrency))
      errors.add('vatCurrency', `"${next.vatCurrency}" is not an ISO 4217 currency.`);
    else if (next.vatCurrency !== null && next.vatCurrency === event.currency)
      errors.add('vatCurrency', `The event already sells in ${event.currency}; name another currency.`);
    if ((next.vatCurrency === null) !== (next.vatExchangeRate === null))
      errors.add(
        next.vatExchangeRate === null ? 'vatExchangeRate' : 'vatCurrency',
        'Give vatCurrency and vatExchangeRate together.',
      );
    errors.throwIfAny();
    const row = {
      enabled: next.enabled ? 1 : 0,
      seller_name: next.sellerName,
      seller_address: next.sellerAddress,
      seller_vat_number: next.sellerVatNumber,
      seller_registration: next.sellerRegistration,
      prefix: next.prefix,
      footer: next.footer,
      vat_currency: next.vatCurrency,
      vat_rate: next.vatExchangeRate,
      updated_utc: ctx.clock.now().toISOString(),
    } as const;
    await ctx.db
      .insertInto('event_invoicing')
      .values({ event_id: event.id, workspace_id: event.workspace_id, ...row })
      .onConflict((oc) => oc.column('event_id').doUpdateSet(row))
      .execute();
    return loadInvoicing(ctx, event);
  },
});
