// Whether a registration waits for the organiser's approval: one of its people holds a ticket type
// that requires it. Such an order is written `requested` (its places held, no ticket valid) until
// the organiser approves or declines it (core/orders/approve-order.ts, decline-order.ts).
import type { CheckedRegistration } from './registration-input';

export function needsApproval({ types, wanted }: CheckedRegistration): boolean {
  for (const ticketTypeId of wanted.byType.keys())
    if (types.get(ticketTypeId)?.requires_approval === 1) return true;
  return false;
}
