import * as v from 'valibot';
import { invoiceKinds } from '../../db/values';
import { loadEvent } from '../platform/load-event';
import { defineOperation } from '../platform/operation';
import { applyOrder, finishOrderedPage } from '../platform/ordered-keyset';
import { cursorFields, pageOf, planPage } from '../platform/paging';
import { uuid } from '../platform/schemas';
import { invoiceItemSchema, invoiceItemView } from './invoice-view';

export const listInvoices = defineOperation({
  name: 'listInvoices',
  title: 'List invoices',
  description:
    "Lists an event's invoices and credit notes in series order (the order of their numbers in the event's one series, which both kinds share): number, order, kind, the invoice a credit note corrects (correctsId), when issued, total and VAT (VAT included, with the currency's own decimals; a credit note's are negative), the VAT also stated in another currency when the law asks (vatCurrency, vatConverted), the seller as printed and the buyer. The buyer is personal data: null without people:read (personalData says withheld) and once erased. Lines are on the single document only (getInvoice). kind filters one kind. updatedSince keeps only documents changed at or after it, still in series order. Cursor paging (cursor, limit). Answers 409 moduleOff when the payments module is switched off. Needs finance:read.",
  scope: 'finance:read',
  effect: 'read',
  module: 'payments',
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    kind: v.optional(
      v.pipe(v.picklist(invoiceKinds), v.description('Only this kind: invoice or creditNote.')),
    ),
    ...cursorFields,
  }),
  output: pageOf(invoiceItemSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'invoices', filters: { eventId: event.id, kind: input.kind } });
    let query = ctx.db.selectFrom('invoices').selectAll().where('event_id', '=', event.id);
    if (input.kind) query = query.where('kind', '=', input.kind);
    // Series order is not change order: updatedSince is a filter here, the keyset stays (series, id).
    if (plan.updatedSince !== null) query = query.where('updated_utc', '>=', plan.updatedSince);
    const rows = await applyOrder(query, plan, [
      { by: 'invoices.series_no', direction: 'asc' },
      { by: 'invoices.id', direction: 'asc' },
    ]).execute();
    return finishOrderedPage(
      ctx,
      plan,
      rows,
      (row) => [row.series_no, row.id],
      (row) => invoiceItemView(ctx.actor, row),
    );
  },
});
