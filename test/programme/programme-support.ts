// Helpers the programme suites share: ids of the sample programme (db/sample/programme.ts), and
// rooms and speakers for events made through the API (the API has no call that creates them).
import { newId } from '../../core/platform/ids';
import { sampleId } from '../../db/sample/ids';
import { nextChangeSeq } from '../../db/sequence';
import type { TestServer } from '../support/server';

export function programmeIds(workspaceId: string) {
  const id = (name: string) => sampleId(workspaceId, name);
  return {
    event: (key: 'summit' | 'meetup' | 'forum' | 'remote' | 'past') => id(`event/${key}`),
    room: (event: string, key: string) => id(`room/${event}/${key}`),
    track: (event: string, key: string) => id(`track/${event}/${key}`),
    speaker: (event: string, key: string) => id(`speaker/${event}/${key}`),
    session: (event: string, key: string) => id(`session/${event}/${key}`),
  };
}

async function owner(t: TestServer, eventId: string) {
  const db = t.server.services.db;
  const event = await db.selectFrom('events').selectAll().where('id', '=', eventId).executeTakeFirstOrThrow();
  const now = t.server.services.clock.now().toISOString();
  return {
    db,
    base: { workspace_id: event.workspace_id, event_id: eventId },
    stamp: async () => ({ created_utc: now, updated_utc: now, change_seq: await nextChangeSeq(db) }),
  };
}

/** Adds a room to an event (test set-up); answers its id. */
export async function addRoom(
  t: TestServer,
  eventId: string,
  spec: { name?: string; capacity?: number | null } = {},
): Promise<string> {
  const { db, base, stamp } = await owner(t, eventId);
  const id = newId();
  await db
    .insertInto('rooms')
    .values({
      id,
      ...base,
      name: spec.name ?? 'Room',
      capacity: spec.capacity ?? null,
      location: null,
      sort_order: 1,
      ...(await stamp()),
    })
    .execute();
  return id;
}

/** Adds a speaker to an event (test set-up); answers its id. */
export async function addSpeaker(t: TestServer, eventId: string, name = 'Test Speaker'): Promise<string> {
  const { db, base, stamp } = await owner(t, eventId);
  const id = newId();
  await db
    .insertInto('speakers')
    .values({
      id,
      ...base,
      name,
      email: 'speaker@example.org',
      company: null,
      job_title: null,
      bio: null,
      photo_url: null,
      erased: 0,
      ...(await stamp()),
    })
    .execute();
  return id;
}
