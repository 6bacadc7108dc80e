// Sample share kit: at the summit, eight sharers — two speakers, a sponsor's marketer and five
// attendees (read from the sales: one of them the attendee who erased their data, one who never
// shared a link) — with links on several channels, clicks on them and registrations the links
// brought (tickets of other attendees, one of them cancelled since, so no longer counted). Two
// attendees are equal on registrations and clicks, so they share a rank. One attendee's link was
// removed since: its address no longer answers, its clicks still count. The meetup's sharekit
// module is switched off (events.ts), to show moduleOff. Totals are never stored: the leaderboard
// counts the click and registration rows.
import type { Db } from '../connect';
import type { ShareChannel, SharerKind } from '../values';
import type { SampleContext } from './context';
import { changeStamp, sampleUtc } from './stamps';

interface LinkSpec {
  channel: ShareChannel;
  clicks: number;
  /** Tickets registered through it: still valid, and cancelled since. */
  registrations: number;
  cancelled?: number;
  /** Removed by the organiser since: its address no longer answers, what it brought still counts. */
  removed?: boolean;
}

interface SharerSpec {
  key: string;
  kind: SharerKind;
  /** A programme speaker or a sponsor, by its sample key; attendees are taken from the sales in turn. */
  of?: string;
  name?: string;
  email?: string;
  /** The attendee who erased their data. */
  erased?: boolean;
  links: LinkSpec[];
}

const summitSharers: SharerSpec[] = [
  {
    key: 'ingrid',
    kind: 'speaker',
    of: 'ingrid',
    links: [
      { channel: 'linkedin', clicks: 40, registrations: 4 },
      { channel: 'x', clicks: 25, registrations: 2 },
    ],
  },
  {
    key: 'kenji',
    kind: 'speaker',
    of: 'kenji',
    links: [{ channel: 'linkedin', clicks: 30, registrations: 4 }],
  },
  {
    key: 'fjord',
    kind: 'sponsor',
    of: 'fjord',
    name: 'Marte Berg',
    email: 'marte.berg@fjordlabs.example.com',
    links: [
      { channel: 'linkedin', clicks: 20, registrations: 3 },
      { channel: 'email', clicks: 8, registrations: 1 },
    ],
  },
  {
    key: 'attendee-1',
    kind: 'attendee',
    links: [
      { channel: 'x', clicks: 7, registrations: 1 },
      { channel: 'messaging', clicks: 5, registrations: 1 },
    ],
  },
  { key: 'attendee-2', kind: 'attendee', links: [{ channel: 'facebook', clicks: 12, registrations: 2 }] },
  {
    key: 'attendee-3',
    kind: 'attendee',
    links: [{ channel: 'email', clicks: 5, registrations: 0, cancelled: 1, removed: true }],
  },
  { key: 'attendee-4', kind: 'attendee', links: [] },
  {
    key: 'erased',
    kind: 'attendee',
    erased: true,
    links: [{ channel: 'linkedin', clicks: 3, registrations: 1 }],
  },
];

export async function insertSampleSharekit(db: Db, sample: SampleContext): Promise<void> {
  await insertSharers(db, sample, 'summit', summitSharers);
}

type Ticket = Awaited<ReturnType<typeof ticketsOf>>[number];

/** A link as shared: its spec, id and when. */
type SharedLink = LinkSpec & { id: string; at: string };

async function insertSharers(db: Db, sample: SampleContext, eventKey: string, specs: SharerSpec[]) {
  const tickets = await ticketsOf(db, sample, eventKey);
  const erasedTicket = tickets.find((a) => a.erased === 1);
  const sharing = tickets.filter((a) => a.erased === 0 && a.status === 'active');
  // The first active tickets share; the tickets after them were brought by the links.
  const attendeeSharers = specs.filter((s) => s.kind === 'attendee' && !s.erased).length;
  const own = sharing.slice(0, attendeeSharers);
  const brought = tickets.filter((a) => a.erased === 0 && !own.includes(a));
  /** The next ticket brought by a link, in that status (it is taken from the ones left). */
  const take = (status: 'active' | 'cancelled') => {
    const i = brought.findIndex((a) => a.status === status);
    if (i < 0) return undefined;
    return brought.splice(i, 1)[0];
  };

  for (const [n, s] of specs.entries()) {
    const ticket = s.kind === 'attendee' ? (s.erased ? erasedTicket : own.shift()) : undefined;
    if (s.kind === 'attendee' && !ticket) continue;
    const links = await insertSharer(db, sample, eventKey, n, s, ticket);
    for (const link of links) {
      await insertShareLink(db, sample, eventKey, s.key, link);
      const registered = [
        ...Array.from({ length: link.registrations }, () => take('active')),
        ...Array.from({ length: link.cancelled ?? 0 }, () => take('cancelled')),
      ];
      await insertShareRegistrations(db, sample, link, registered);
    }
  }
}

/** The event's tickets, oldest first. */
function ticketsOf(db: Db, sample: SampleContext, eventKey: string) {
  return db
    .selectFrom('attendees')
    .select(['id', 'first_name', 'last_name', 'email', 'status', 'erased', 'created_utc'])
    .where('event_id', '=', sample.id(`event/${eventKey}`))
    .orderBy('created_utc')
    .orderBy('id')
    .execute();
}

/**
 * The n-th sharer (an attendee of their ticket, a speaker of the programme, or a sponsor's person),
 * joined six weeks before the sample's day, a day after the one before; answers its links, shared
 * from the day after it joined, an hour apart.
 */
async function insertSharer(
  db: Db,
  sample: SampleContext,
  eventKey: string,
  n: number,
  s: SharerSpec,
  ticket: Ticket | undefined,
): Promise<SharedLink[]> {
  const speaker =
    s.kind === 'speaker'
      ? await db
          .selectFrom('speakers')
          .select(['id', 'name', 'email'])
          .where('id', '=', sample.id(`speaker/${eventKey}/${s.of}`))
          .executeTakeFirst()
      : undefined;
  const name = ticket ? `${ticket.first_name} ${ticket.last_name}` : (speaker?.name ?? s.name ?? null);
  const email = ticket ? ticket.email : (speaker?.email ?? s.email ?? null);
  const links = s.links.map((l, i) => ({
    ...l,
    id: sample.id(`sharelink/${eventKey}/${s.key}/${l.channel}`),
    at: sampleUtc(sample, -42 + n, 60 * i),
  }));
  const joined = sampleUtc(sample, -43 + n);
  await db
    .insertInto('sharers')
    .values({
      id: sample.id(`sharer/${eventKey}/${s.key}`),
      workspace_id: sample.workspaceId,
      event_id: sample.id(`event/${eventKey}`),
      kind: s.kind,
      attendee_id: ticket?.id ?? null,
      speaker_id: speaker?.id ?? null,
      sponsor_id: s.kind === 'sponsor' ? sample.id(`sponsor/${eventKey}/${s.of}`) : null,
      name: s.erased ? null : name,
      email: s.erased ? null : email,
      erased: s.erased ? 1 : 0,
      ...(await changeStamp(db, joined, links.at(-1)?.at ?? joined)),
    })
    .execute();
  return links;
}

/** The link, with its clicks over the month after it was shared. */
async function insertShareLink(
  db: Db,
  sample: SampleContext,
  eventKey: string,
  sharerKey: string,
  link: SharedLink,
): Promise<void> {
  await db
    .insertInto('share_links')
    .values({
      id: link.id,
      workspace_id: sample.workspaceId,
      event_id: sample.id(`event/${eventKey}`),
      sharer_id: sample.id(`sharer/${eventKey}/${sharerKey}`),
      channel: link.channel,
      code: `${sharerKey}-${link.channel}`,
      shared_utc: link.at,
      // Removed a month after it was shared.
      ...(await changeStamp(db, link.at, link.removed ? removedAt(link.at) : link.at)),
      removed_utc: link.removed ? removedAt(link.at) : null,
    })
    .execute();
  for (let c = 0; c < link.clicks; c++)
    await db
      .insertInto('share_clicks')
      .values({
        workspace_id: sample.workspaceId,
        link_id: link.id,
        clicked_utc: new Date(
          Date.parse(link.at) + ((c * 7) % 30) * 86_400_000 + (c % 24) * 3_600_000,
        ).toISOString(),
      })
      .execute();
}

/** The tickets the link brought, registered when they were made. */
async function insertShareRegistrations(
  db: Db,
  sample: SampleContext,
  link: SharedLink,
  registered: (Ticket | undefined)[],
): Promise<void> {
  for (const a of registered) {
    if (!a) continue;
    await db
      .insertInto('share_registrations')
      .values({
        attendee_id: a.id,
        workspace_id: sample.workspaceId,
        link_id: link.id,
        registered_utc: a.created_utc,
      })
      .execute();
  }
}

function removedAt(sharedUtc: string): string {
  return new Date(Date.parse(sharedUtc) + 30 * 86_400_000).toISOString();
}
