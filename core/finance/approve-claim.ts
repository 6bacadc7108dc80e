import { claimMove } from './claim-move';

export const approveClaim = claimMove({
  name: 'approveClaim',
  title: 'Approve an expense claim',
  description:
    'Approves a submitted expense claim; claim.approved is sent. A claim already approved, paid or declined is refused (statusNotAllowed) naming its status. Needs finance:write.',
  from: ['submitted'],
  to: 'approved',
  action: 'approved',
  stamp: (now) => ({ approved_utc: now }),
});
