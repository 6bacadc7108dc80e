// The toolsets an MCP connection lists, chosen by its URL: /mcp lists the default ones, and
// /mcp?toolsets=sponsors,crew adds those (toolsets=all lists every one). Each toolset is an area
// of the API; the tools of the others stay callable and are found with list_toolsets. Kept free
// of the tool table, so the endpoint can refuse a wrong choice before loading the SDK.
import { problem } from '../core/platform/problems';

/** The toolsets, in the reference's order of areas, each with what an assistant finds there. */
export const toolsetCatalogue = {
  workspace: 'The workspace the key reaches and what the key may do.',
  events: 'Events: draft, publish, change, statistics and registration questions.',
  tickets: 'Ticket types, add-ons and discount codes.',
  orders: 'Orders and the sales pace of an event.',
  attendees: 'Attendees: list, search, register, correct and cancel.',
  waitingList: 'Waiting lists of sold-out ticket types and the places offered from them.',
  people: 'A person across the workspace: erasing their data at their request.',
  checkin: 'Doors, check-in at the door, offline scans and the live summary.',
  programme: 'Sessions, rooms, tracks and speakers.',
  sponsors: 'Sponsors, their levels and the leads their staff capture.',
  cfp: 'Submissions to the call for speakers.',
  sharekit: 'The share kit leaderboard of personal links.',
  passes: 'Season passes and bundles, and who holds them.',
  crew: 'Crew and their shifts.',
  logistics: 'Hotel stays and journeys of speakers and crew.',
  surveys: 'Surveys, their results and session ratings.',
  certificates: 'Certificates of attendance, speaking and crewing, and their verification.',
  finance: 'Invoices, credit notes, the budget and the Stripe connection.',
  communities: 'Communities of meetups and their members.',
  exports: "An event's attendees, orders, check-ins or leads as one file.",
  webhooks: 'Webhook endpoints, their deliveries, and automation subscriptions (hooks).',
} as const;

export type ToolsetName = keyof typeof toolsetCatalogue;

export const toolsetNames = Object.keys(toolsetCatalogue) as ToolsetName[];

/**
 * Listed on every connection: running sales and the door. An everything key's list of these stays
 * under 60 KB, an assistant's budget (test/mcp/toolsets.test.ts measures it); the programme, the
 * largest editorial area, is added by name (toolsets=programme) or reached through discovery.
 */
export const defaultToolsets: readonly ToolsetName[] = [
  'workspace',
  'events',
  'tickets',
  'orders',
  'attendees',
  'checkin',
];

/** What a connection asked for beyond the defaults. */
export interface ToolsetChoice {
  all: boolean;
  /** The toolsets named in the URL, in its order, without the defaults. */
  added: ToolsetName[];
}

export const defaultChoice: ToolsetChoice = { all: false, added: [] };

const isToolsetName = (name: string): name is ToolsetName => Object.hasOwn(toolsetCatalogue, name);

export function isListed(choice: ToolsetChoice, toolset: ToolsetName): boolean {
  return choice.all || defaultToolsets.includes(toolset) || choice.added.includes(toolset);
}

/** The toolsets query parameter (comma-separated, possibly repeated); a name that is none is refused. */
export function toolsetChoice(query: string | string[] | undefined): ToolsetChoice {
  const asked = [query ?? []]
    .flat()
    .flatMap((part) => part.split(','))
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = asked.filter((name) => name !== 'all' && !isToolsetName(name));
  if (unknown.length > 0)
    throw problem(
      'invalidRequest',
      `Unknown toolset: ${unknown.join(', ')}. The toolsets are ${toolsetNames.join(', ')}, or all.`,
      { unknown, toolsets: toolsetNames },
    );
  if (asked.includes('all')) return { all: true, added: [] };
  const added = [...new Set(asked as ToolsetName[])].filter((name) => !defaultToolsets.includes(name));
  return { all: false, added };
}

/** The address that lists these toolsets besides the defaults. */
export function toolsetsUrl(mcpUrl: string, toolsets: readonly ToolsetName[]): string {
  const added = toolsets.filter((name) => !defaultToolsets.includes(name));
  return added.length ? `${mcpUrl}?toolsets=${added.join(',')}` : mcpUrl;
}
