// What the public sees of an event at its address /e/{slug}: a published event only (a draft or an
// unknown slug is not there), its dates in the venue's time, the venue or that it is online, the
// ticket types on sale now, and the programme when the programme module is on. Slugs are unique
// across the deployment, so no workspace or key is needed to find it.
import type { Db } from '../../db/connect';
import type { EventRow } from '../../db/schema';
import type { Clock } from '../platform/clock';
import { toMajor } from '../platform/money';
import { modulesOf } from '../platform/pipeline/load-event';
import { venueTimeRange } from '../platform/time';
import { placesLeft } from '../sales';
import { onSaleAt } from './types-on-sale';

export interface PublicEvent {
  name: string;
  when: string;
  timeZone: string;
  online: boolean;
  venue: { name: string; address: string | null; city: string | null; country: string | null } | null;
  tickets: { name: string; description: string; price: number; currency: string; soldOut: boolean }[];
  programme: {
    title: string;
    kind: string;
    when: string;
    room: string | null;
    speakers: string[];
    content: PublishedLink[];
  }[];
  /** Content published for the whole event rather than one session. */
  content: PublishedLink[];
}

/** Slides, a recording, an article or photos published with its link (http or https only). */
export interface PublishedLink {
  kind: string;
  title: string;
  url: string;
}

/** What the public sees of `event`, a published event (its row as the sign-up offer read it). */
export async function publicEvent(db: Db, clock: Clock, event: EventRow): Promise<PublicEvent> {
  const now = clock.now().toISOString();
  const types = await onSaleAt(
    db
      .selectFrom('ticket_types')
      .selectAll()
      .where('event_id', '=', event.id)
      .where('visibility', '=', 'public'),
    now,
  ).execute();
  const published = modulesOf(event).program ? await publishedContent(db, event.id) : new Map();
  const programme = modulesOf(event).program
    ? await publicProgramme(db, event.id, event.time_zone, published)
    : [];
  return {
    name: event.name,
    when: venueTimeRange(event.starts_utc, event.ends_utc, event.time_zone),
    timeZone: event.time_zone,
    online: event.online === 1,
    venue:
      event.venue_name === null
        ? null
        : {
            name: event.venue_name,
            address: event.venue_address,
            city: event.venue_city,
            country: event.venue_country,
          },
    tickets: types.map((t) => ({
      name: t.name,
      description: t.description,
      price: toMajor(t.price_minor, event.currency),
      currency: event.currency,
      soldOut: placesLeft(t.capacity, t.taken) === 0,
    })),
    programme,
    content: published.get(null) ?? [],
  };
}

/** What is published, by session (null: the whole event), oldest first. */
async function publishedContent(db: Db, eventId: string): Promise<Map<string | null, PublishedLink[]>> {
  const rows = await db
    .selectFrom('published_content')
    .select(['session_id', 'kind', 'title', 'url'])
    .where('event_id', '=', eventId)
    .orderBy('published_utc')
    .orderBy('id')
    .execute();
  const bySession = new Map<string | null, PublishedLink[]>();
  for (const row of rows) {
    // Imported rows were checked as URLs, not as http(s): only those are links on a page.
    if (!/^https?:\/\//i.test(row.url)) continue;
    const list = bySession.get(row.session_id) ?? [];
    list.push({ kind: row.kind, title: row.title, url: row.url });
    bySession.set(row.session_id, list);
  }
  return bySession;
}

async function publicProgramme(
  db: Db,
  eventId: string,
  zone: string,
  published: Map<string | null, PublishedLink[]>,
): Promise<PublicEvent['programme']> {
  const sessions = await db
    .selectFrom('sessions')
    .leftJoin('rooms', 'rooms.id', 'sessions.room_id')
    .select([
      'sessions.id',
      'sessions.title',
      'sessions.kind',
      'sessions.starts_utc',
      'sessions.ends_utc',
      'sessions.speaker_ids',
      'rooms.name as room',
    ])
    .where('sessions.event_id', '=', eventId)
    // A draft (an accepted submission not yet published) is the organiser's only.
    .where('sessions.draft', '=', 0)
    .orderBy('sessions.starts_utc')
    .orderBy('sessions.id')
    .execute();
  const speakers = new Map(
    (
      await db
        .selectFrom('speakers')
        .select(['id', 'name'])
        .where('event_id', '=', eventId)
        .where('erased', '=', 0)
        .execute()
    ).map((s) => [s.id, s.name]),
  );
  return sessions.map((s) => ({
    title: s.title,
    kind: s.kind,
    when: venueTimeRange(s.starts_utc, s.ends_utc, zone),
    room: s.room,
    speakers: (JSON.parse(s.speaker_ids) as string[])
      .map((id) => speakers.get(id))
      .filter((name): name is string => typeof name === 'string'),
    content: published.get(s.id) ?? [],
  }));
}
