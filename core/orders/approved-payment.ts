// What approval does to an order with a price: its payment is asked for the way the buyer chose. By
// bank transfer: status transfer, and the buyer gets the transfer instructions, as an order taken
// without approval does at once (create-order.ts). By card (the order kept its checkout from the
// start, card-checkout.ts): status pending, its places held from now for the hold's length, and the
// buyer is e-mailed the link to its page, where the Checkout session is made when they come to pay.
import type { EventRow, OrderRow } from '../../db/schema';
import { queueTransferInstructions } from '../mail';
import type { Ctx } from '../platform/context';
import { restartCheckoutHold } from './card-checkout';
import { moveFromRequested } from './requested-order';

export async function askForPayment(ctx: Ctx, event: EventRow, order: OrderRow): Promise<void> {
  const byCard = await restartCheckoutHold(ctx, order.id);
  await moveFromRequested(ctx, order.id, byCard ? 'pending' : 'transfer');
  await queueTransferInstructions(ctx, event.id, order.id);
}
