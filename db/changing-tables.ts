// The tables whose rows carry when they were made, when they last changed and their change position
// (created_utc, updated_utc, change_seq): the sample data and the import stamp them.
/** Every table whose rows carry a change position (change_seq) and the time of that change. */
export const changingTables = [
  'events',
  'ticket_types',
  'add_ons',
  'discount_codes',
  'orders',
  'attendees',
  'rooms',
  'tracks',
  'speakers',
  'sessions',
  'doors',
  'passes',
  'pass_holders',
  'sponsor_levels',
  'sponsors',
  'leads',
  'submissions',
  'submission_speakers',
  'sharers',
  'share_links',
  'communities',
  'community_members',
  'crew_members',
  'shifts',
  'surveys',
  'invoices',
  'budget_lines',
  'stays',
  'travel',
  'expense_claims',
  'certificates',
  'published_content',
] as const;

export type ChangingTable = (typeof changingTables)[number];
