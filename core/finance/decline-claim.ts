import { claimMove } from './claim-move';

export const declineClaim = claimMove({
  name: 'declineClaim',
  title: 'Decline an expense claim',
  description:
    'Declines a submitted expense claim: its status becomes rejected (no message is sent; there is no event type for it). A claim approved, paid or already declined is refused (statusNotAllowed) naming its status. Needs finance:write.',
  from: ['submitted'],
  to: 'rejected',
  action: 'declined',
});
