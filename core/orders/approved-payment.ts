// What approval does to an order with a price: its payment is asked for the way the buyer chose.
// Today every such order awaits a bank transfer: status transfer, and the buyer gets the transfer
// instructions, as an order taken without approval does at once (create-order.ts). The one place
// where another way of paying (a card, through a checkout) would branch.
import type { EventRow, OrderRow } from '../../db/schema';
import { queueTransferInstructions } from '../mail';
import type { Ctx } from '../platform/context';
import { moveFromRequested } from './requested-order';

export async function askForPayment(ctx: Ctx, event: EventRow, order: OrderRow): Promise<void> {
  await moveFromRequested(ctx, order.id, 'transfer');
  await queueTransferInstructions(ctx, event.id, order.id);
}
