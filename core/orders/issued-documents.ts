// What an answer that issued an invoice or credit note says of it (issue 52, item 5): the order as
// the spec shows it, plus `invoice` (mark-paid) or `creditNote` (refund) naming the document, only
// when one was issued. The spec's Order fields stay as they are.
import * as v from 'valibot';
import type { Ctx } from '../platform/context';
import { text, uuid } from '../platform/schemas';
import { checkoutSchema } from './card-checkout';
import { orderSchema } from './order-view';

const documentField = (description: string) =>
  v.optional(
    v.pipe(
      v.object({
        invoiceId: uuid('The document id (GET /events/{eventId}/invoices/{invoiceId}, or …/pdf).'),
        number: text("Its number in the event's series."),
      }),
      v.description(description),
      v.metadata({ 'x-tessera-extension': true }),
    ),
  );

export const paidOrderSchema = v.object({
  ...orderSchema.entries,
  invoice: documentField(
    'Tessera extension: the invoice this call issued (the event invoices and the total is above 0); absent when none was.',
  ),
  checkout: v.optional(
    v.pipe(
      checkoutSchema,
      v.description("Tessera extension: a card order's payment link and its hold; absent for other orders."),
      v.metadata({ 'x-tessera-extension': true }),
    ),
  ),
});

export const refundedOrderSchema = v.object({
  ...orderSchema.entries,
  creditNote: documentField(
    "Tessera extension: the credit note this call issued to correct the order's invoice; absent when the order had none.",
  ),
});

export interface DocumentRef {
  invoiceId: string;
  number: string;
}

/** The id and number of a document just written; undefined for none. */
export async function documentRef(ctx: Ctx, invoiceId: string | null): Promise<DocumentRef | undefined> {
  if (invoiceId === null) return undefined;
  const row = await ctx.db
    .selectFrom('invoices')
    .select(['id', 'number'])
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  return { invoiceId: row.id, number: row.number };
}
