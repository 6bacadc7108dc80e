import * as v from 'valibot';
import { invoicingSchema, loadInvoicing } from '../invoicing';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';

export const getInvoicing = defineOperation({
  name: 'getInvoicing',
  title: 'Get invoicing settings',
  description:
    "Returns the event's invoicing settings: whether paid orders get invoices, the seller as printed, the number prefix, the footer and a second VAT currency with its rate. Needs finance:read.",
  scope: 'finance:read',
  effect: 'read',
  extension: true,
  module: 'payments',
  etag: true,
  problems: [],
  input: v.object({ eventId: uuid('The event id.') }),
  output: invoicingSchema,
  async handler(ctx, input) {
    return loadInvoicing(ctx, await loadEvent(ctx, input.eventId));
  },
});
