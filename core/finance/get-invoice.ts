import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { invoiceSchema, invoiceView } from './invoice-view';

export const getInvoice = defineOperation({
  name: 'getInvoice',
  title: 'Get an invoice',
  description:
    'Returns one invoice or credit note with its lines, seller and buyer (the buyer needs people:read). Needs finance:read.',
  scope: 'finance:read',
  effect: 'read',
  module: 'payments',
  problems: ['notFound'],
  etag: true,
  input: v.object({ eventId: uuid('The event id.'), invoiceId: uuid('The invoice or credit note id.') }),
  output: invoiceSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const row = await ctx.db
      .selectFrom('invoices')
      .selectAll()
      .where('id', '=', input.invoiceId)
      .where('event_id', '=', event.id)
      .executeTakeFirst();
    if (!row) throw problem('notFound', `No invoice ${input.invoiceId} at this event.`);
    const lines = await ctx.db
      .selectFrom('invoice_lines')
      .selectAll()
      .where('invoice_id', '=', row.id)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return invoiceView(ctx.actor, row, lines);
  },
});
