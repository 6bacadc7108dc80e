// Takes an order at the command line (tessera order create): the API's createOrder (core/orders),
// its input, rules and answer, run by the operator. What a desk needs without a key: a guest at the
// door paid in cash or on a card terminal (paidElsewhere: valid at once), a speaker's complimentary
// ticket, an order awaiting a transfer, or a card order whose payment link is printed to send. Like
// mark-paid, an order whose e-mail would go out is refused emailNotSent, changing nothing, when the
// command lacks the service's e-mail settings or public URL (--no-email: the service sends none).
import type * as v from 'valibot';
import { createOrder } from '../orders';
import type { Ctx } from '../platform/context';
import { defineOperation } from '../platform/pipeline/operation';
import { invokeAsOperator } from './operator';

export const takeOrderOperation = defineOperation({
  ...createOrder,
  name: 'takeOrder',
  title: 'Take an order (command line)',
  description:
    "Takes an order as the API's createOrder does (tessera order create): by bank transfer, by card (answers the payment link to send), paid elsewhere (valid at once) or complimentary, a discount code off; refused emailNotSent, changing nothing, when its e-mail cannot be queued.",
  operator: true,
  scope: 'any',
  // No key, so no Idempotency-Key: a command is run once.
  idempotent: false,
  problems: [...createOrder.problems, 'emailNotSent'],
});

/** Takes an order as the operator, through invoke. */
export function takeOrder(operator: Ctx, input: v.InferInput<typeof createOrder.input>) {
  return invokeAsOperator(takeOrderOperation, operator, input);
}
