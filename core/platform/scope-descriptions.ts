// What each scope lets a caller do, in words for the person granting it: an area name, a one-line
// meaning and its kind (a read, a write, or personal data). The consent page of the assistant
// sign-in shows these; any other page that lists scopes should use them too.
import { personalDataScopes, type Scope, scopes } from './scopes';

export type ScopeKind = 'read' | 'write' | 'personal';

export interface ScopeDescription {
  scope: Scope;
  /** The area it reaches, as a person names it: "Attendees". */
  area: string;
  /** What it allows, in one line starting with a verb: "see who registered and their tickets". */
  meaning: string;
  kind: ScopeKind;
}

const words: Record<Scope, { area: string; meaning: string }> = {
  'events:read': {
    area: 'Events',
    meaning: 'see events, their statistics, registration questions and doors',
  },
  'events:write': {
    area: 'Events',
    meaning: 'create draft events, change their details and doors, publish or unpublish them',
  },
  'tickets:read': {
    area: 'Tickets',
    meaning: 'see ticket types, add-ons, discount codes and passes, with what is sold',
  },
  'tickets:write': {
    area: 'Tickets',
    meaning: 'create ticket types, add-ons and discount codes; change capacity and sales windows',
  },
  'orders:read': { area: 'Orders', meaning: 'see orders, their totals and payments, and the sales pace' },
  'orders:write': {
    area: 'Orders',
    meaning: 'mark orders paid by transfer or on account, and refund them',
  },
  'attendees:read': { area: 'Attendees', meaning: 'see who registered and their tickets, and pass holders' },
  'attendees:write': {
    area: 'Attendees',
    meaning: 'register people with a free ticket, change and cancel tickets',
  },
  'checkins:read': { area: 'Check-ins', meaning: 'see door scans and check-in counts' },
  'checkins:write': { area: 'Check-ins', meaning: 'check attendees in at a door' },
  'program:read': { area: 'Programme', meaning: 'see sessions, rooms, tracks and speakers' },
  'program:write': { area: 'Programme', meaning: 'add and change sessions, rooms, tracks and speakers' },
  'sponsors:read': {
    area: 'Sponsors',
    meaning: 'see sponsors, exhibitors, their levels and the leads visitors agreed to share',
  },
  'sponsors:write': {
    area: 'Sponsors',
    meaning: 'add, change and remove sponsors and their levels; capture and change leads',
  },
  'leads:write': {
    area: 'Leads',
    meaning: 'capture visitors at a sponsor booth and see sponsors and their leads, nothing more',
  },
  'cfp:read': { area: 'Call for speakers', meaning: 'see the talks submitted and their status' },
  'cfp:write': {
    area: 'Call for speakers',
    meaning: 'open and close the call; add, review, accept and reject submissions',
  },
  'submissions:write': {
    area: 'Call for speakers',
    meaning: 'send and withdraw submissions as a speaker-facing site would, and nothing else',
  },
  'crew:read': { area: 'Crew', meaning: 'see crew, volunteers, their roles and shifts' },
  'crew:write': {
    area: 'Crew',
    meaning: 'invite, change and remove crew; create shifts; sign crew up for shifts or drop them',
  },
  'surveys:read': {
    area: 'Surveys',
    meaning: 'see surveys, session ratings and results, never who answered',
  },
  'surveys:write': {
    area: 'Surveys',
    meaning: 'create, open and close surveys; record answers and session ratings',
  },
  'finance:read': { area: 'Finance', meaning: 'see invoices, credit notes and the budget summary' },
  'finance:write': {
    area: 'Finance',
    meaning: 'set up invoicing; add, change and remove budget lines; approve and pay expense claims',
  },
  'logistics:write': {
    area: 'Speakers and crew logistics',
    meaning: 'arrange hotel stays and journeys of speakers and crew, and see attendees to link them',
  },
  'certificates:write': {
    area: 'Certificates',
    meaning: 'issue and revoke certificates of attendance, and see attendees to issue them to',
  },
  'sharekit:read': { area: 'Share kit', meaning: 'see the share-kit leaderboard' },
  'sharekit:write': {
    area: 'Share kit',
    meaning: 'make share links for attendees and named sharers',
  },
  'communities:read': { area: 'Communities', meaning: 'see communities and their members' },
  'communities:write': {
    area: 'Communities',
    meaning: 'create, change and publish communities; approve, decline and remove members',
  },
  'webhooks:read': {
    area: 'Webhooks',
    meaning: 'see webhook endpoints, their deliveries, event types and automation subscriptions',
  },
  'webhooks:write': {
    area: 'Webhooks',
    meaning: 'add, change, test and remove webhook endpoints and automation subscriptions',
  },
  'people:read': {
    area: 'People',
    meaning: 'see names, email addresses, companies and answers in every area it may see',
  },
  'people:write': {
    area: 'People',
    meaning: 'erase a person and everything personal about them at their request; this cannot be undone',
  },
};

export function kindOf(scope: Scope): ScopeKind {
  if (personalDataScopes.includes(scope)) return 'personal';
  return scope.endsWith(':write') ? 'write' : 'read';
}

export function describeScope(scope: Scope): ScopeDescription {
  return { scope, ...words[scope], kind: kindOf(scope) };
}

/** The kinds in the order a person weighs them, each with its heading and what it means. */
export const scopeKinds: readonly { kind: ScopeKind; heading: string; meaning: string }[] = [
  { kind: 'read', heading: 'See', meaning: 'Read only: nothing in the workspace changes.' },
  {
    kind: 'write',
    heading: 'Change',
    meaning: 'Creates, changes or removes things in the workspace; each also lets it see that area.',
  },
  {
    kind: 'personal',
    heading: 'Personal data',
    meaning: 'Without this, names and contact details stay hidden in everything it may see.',
  },
];

/** Every scope described, in the scope table's order (areas together within each kind). */
export const scopeDescriptions: readonly ScopeDescription[] = scopes.map(describeScope);
