import * as v from 'valibot';
import { invoiceKinds } from '../../db/values';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyOrder, finishOrderedPage } from '../platform/pipeline/ordered-keyset';
import { cursorFields, pageOf, planPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { invoiceItemSchema, invoiceItemView } from './invoice-view';

export const listInvoices = defineOperation({
  name: 'listInvoices',
  title: 'List invoices',
  description:
    "Lists an event's invoices and credit notes by number; filter by kind. The buyer needs people:read. Needs finance:read.",
  scope: 'finance:read',
  effect: 'read',
  module: 'payments',
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    kind: v.optional(v.pipe(v.picklist(invoiceKinds), v.description('invoice or creditNote.'))),
    ...cursorFields,
  }),
  output: pageOf(invoiceItemSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'invoices', filters: { eventId: event.id, kind: input.kind } });
    let query = ctx.db.selectFrom('invoices').selectAll().where('event_id', '=', event.id);
    if (input.kind) query = query.where('kind', '=', input.kind);
    // Series order is not change order: updatedSince is a filter here, the keyset stays (series, id).
    const rows = await applyOrder(
      query,
      plan,
      [
        { by: 'invoices.series_no', direction: 'asc' },
        { by: 'invoices.id', direction: 'asc' },
      ],
      { updated: 'invoices.updated_utc', txn: 'invoices.change_txn' },
    ).execute();
    return finishOrderedPage(
      ctx,
      plan,
      rows,
      (row) => [row.series_no, row.id],
      (row) => invoiceItemView(ctx.actor, row),
    );
  },
});
