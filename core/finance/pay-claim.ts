import { claimMove } from './claim-move';

export const payClaim = claimMove({
  name: 'payClaim',
  title: 'Mark an expense claim paid',
  description:
    'Marks an approved expense claim paid; claim.paid is sent. Only an approved claim can be paid: any other is refused (statusNotAllowed) naming its status, so two payments at once pay once. Needs finance:write.',
  from: ['approved'],
  to: 'paid',
  action: 'paid',
  stamp: (now) => ({ paid_utc: now }),
});
