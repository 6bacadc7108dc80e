// A room, a track or a speaker removed while a write gives it a use (a session placed in the room, a
// session or submission on the track or the call for speakers offering it, a session naming the
// speaker), one call held once it has read while the other runs to its end
// (test/support/race-harness.ts whileHeld). A removal counts the uses first, so either order must
// end as if the calls came one after the other:
// - the removal ran meanwhile: the write is refused as for a room, track or speaker that is not there
//   (400 invalidRequest naming the field), never a 500 on the foreign key nor a session naming a
//   speaker, or a call offering a track, that is gone;
// - the write ran meanwhile: the removal is refused (409 inUse) and the use stays, never a session
//   whose room or track was quietly set to none.
// On PostgreSQL the removal locks the row before counting and the write holds it while checking it
// (db/dialect.ts lockingRow, referencedRow); without that both orders went wrong. On SQLite the call
// run meanwhile runs first, then the other (race-harness.ts heldOrInTurn).
import { describe, expect, it } from 'vitest';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { createSubmission } from '../../core/cfp/create-submission';
import { updateCallForSpeakers } from '../../core/cfp/update-call';
import { checkInAttendee } from '../../core/checkin/check-in-attendee';
import { createDoor } from '../../core/checkin/create-door';
import { deleteDoor } from '../../core/checkin/delete-door';
import { createCommunity } from '../../core/communities/create-community';
import { deleteCommunity } from '../../core/communities/delete-community';
import { joinCommunity } from '../../core/communities/join-community';
import { createEvent } from '../../core/events/create-event';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { createRoom } from '../../core/programme/create-room';
import { createSession } from '../../core/programme/create-session';
import { createSpeaker } from '../../core/programme/create-speaker';
import { createTrack } from '../../core/programme/create-track';
import { deleteRoom } from '../../core/programme/delete-room';
import { deleteSession } from '../../core/programme/delete-session';
import { deleteSpeaker } from '../../core/programme/delete-speaker';
import { deleteTrack } from '../../core/programme/delete-track';
import { rateSession } from '../../core/surveys/rate-session';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, heldOrInTurn: held, waitsFor, db } = raceHarness('Use beside removal');

interface Case {
  /** The use, as the case's title names it. */
  use: string;
  /** Makes the row at the event; answers the removal's input. */
  make(eventId: string): Promise<Record<string, unknown>>;
  remove: AnyOperation;
  /** The write giving the row a use. */
  write: AnyOperation;
  input(eventId: string, ids: Record<string, unknown>): Record<string, unknown>;
  /** The use's table and how it names the row, to see it kept. */
  table: 'sessions' | 'submissions' | 'calls_for_speakers';
  refers(row: {
    room_id?: string | null;
    track_id?: string | null;
    speaker_ids?: string;
    track_ids?: string;
  }): string | null;
}

const session = (eventId: string, placement: Record<string, unknown>) => ({
  eventId,
  title: 'Keynote',
  startsLocal: '2027-05-01T10:00',
  endsLocal: '2027-05-01T11:00',
  ...placement,
});

const cases: Case[] = [
  {
    use: 'a session placed in a room',
    make: async (eventId) => ({ roomId: (await call(createRoom, { eventId, name: 'Hall' })).roomId }),
    remove: deleteRoom,
    write: createSession,
    input: (eventId, { roomId }) => session(eventId, { roomId }),
    table: 'sessions',
    refers: (row) => row.room_id ?? null,
  },
  {
    use: 'a session on a track',
    make: async (eventId) => ({
      trackId: (await call(createTrack, { eventId, name: 'Data', colour: '#112233' })).trackId,
    }),
    remove: deleteTrack,
    write: createSession,
    input: (eventId, { trackId }) => session(eventId, { trackId }),
    table: 'sessions',
    refers: (row) => row.track_id ?? null,
  },
  {
    use: 'a submission on a track',
    make: async (eventId) => ({
      trackId: (await call(createTrack, { eventId, name: 'Data', colour: '#112233' })).trackId,
    }),
    remove: deleteTrack,
    write: createSubmission,
    input: (eventId, { trackId }) => ({
      eventId,
      title: 'Racing tracks',
      abstract: 'Two at once.',
      format: 'talk',
      language: 'en',
      trackId,
      speakers: [{ name: 'Ada', email: 'ada@example.org' }],
    }),
    table: 'submissions',
    refers: (row) => row.track_id ?? null,
  },
  {
    use: 'the call for speakers offering a track',
    make: async (eventId) => ({
      trackId: (await call(createTrack, { eventId, name: 'Data', colour: '#112233' })).trackId,
    }),
    remove: deleteTrack,
    write: updateCallForSpeakers,
    input: (eventId, { trackId }) => ({ eventId, trackIds: [trackId] }),
    table: 'calls_for_speakers',
    refers: (row) => (JSON.parse(row.track_ids ?? '[]') as string[])[0] ?? null,
  },
  {
    use: 'a session naming a speaker',
    make: async (eventId) => ({ speakerId: (await call(createSpeaker, { eventId, name: 'Ada' })).speakerId }),
    remove: deleteSpeaker,
    write: createSession,
    input: (eventId, { speakerId }) => session(eventId, { speakerIds: [speakerId] }),
    table: 'sessions',
    refers: (row) => (JSON.parse(row.speaker_ids ?? '[]') as string[])[0] ?? null,
  },
];

async function uses(c: Case, eventId: string): Promise<(string | null)[]> {
  const rows = await db().selectFrom(c.table).selectAll().where('event_id', '=', eventId).execute();
  return rows.map((row) => c.refers(row as never));
}

describe('a use given to a row beside its removal, one held once it has read while the other ends', () => {
  it.each(cases.map((c) => [c.use, c] as const))(
    '%s, removed meanwhile: the write answers 400 invalidRequest',
    async (_use, c) => {
      const { eventId } = await call(createEvent, eventBody());
      const ids = await c.make(eventId);
      const [written, removed] = await held(
        [c.write, c.input(eventId, ids)],
        [c.remove, { eventId, ...ids }],
      );
      expect(removed).toMatchObject({ deleted: true });
      expect(written).toBe('invalidRequest');
      expect(await uses(c, eventId)).toEqual([]);
    },
  );

  it.each(cases.map((c) => [c.use, c] as const))(
    '%s, written meanwhile: the removal answers 409 inUse and the use stays',
    async (_use, c) => {
      const { eventId } = await call(createEvent, eventBody());
      const ids = await c.make(eventId);
      const [removed, written] = await held(
        [c.remove, { eventId, ...ids }],
        [c.write, c.input(eventId, ids)],
      );
      expect(written, JSON.stringify(written)).toBeTypeOf('object');
      expect(removed).toBe('inUse');
      expect(await uses(c, eventId)).toEqual([Object.values(ids)[0]]);
    },
  );
});

// A use written while the removal counts: a scan at a door, a rating of a session or a member joining a community, has
// written its row (holding the door or community FOR KEY SHARE, as its foreign key does) and not
// committed when the removal counts the uses. The removal's lock of its row (FOR UPDATE,
// db/dialect.ts lockingRow) waits for the write to end, then counts it and refuses. With a lock a
// use does not wait for (the update touching the row these removals took before), the count missed
// the use in flight, and the delete then waited for it and went ahead: a door removed with its scan
// (or failing on it), a session with its rating, a community with the member who had just joined.
describe('a use in flight while its row is removed: the removal waits for it, then answers 409 inUse', () => {
  it('a scan at a door', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day' });
    const { attendees } = await call(registerAttendees, {
      eventId,
      attendees: [{ ticketTypeId, firstName: 'Ada', lastName: 'Scanned', email: 'ada@example.org' }],
    });
    const { doorId } = await call(createDoor, { eventId, name: 'Side' });
    const [scanned, removed] = await waitsFor(
      [checkInAttendee, { eventId, attendeeId: attendees[0].attendeeId, doorId }],
      /^insert into "outbox"/,
      [deleteDoor, { eventId, doorId }],
    );
    expect(scanned).toMatchObject({ result: 'welcome' });
    expect(removed).toBe('inUse');
    const scans = await db()
      .selectFrom('check_ins')
      .select('door_id')
      .where('event_id', '=', eventId)
      .execute();
    expect(scans).toEqual([{ door_id: doorId }]);
  });

  it('a rating of a session', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day' });
    const { attendees } = await call(registerAttendees, {
      eventId,
      attendees: [{ ticketTypeId, firstName: 'Ada', lastName: 'Rater', email: 'ada@example.org' }],
    });
    const { sessionId } = await call(createSession, session(eventId, {}));
    const [rated, removed] = await waitsFor(
      [rateSession, { eventId, sessionId, attendeeId: attendees[0].attendeeId, stars: 5 }],
      /^insert into "session_ratings"/,
      [deleteSession, { eventId, sessionId }],
    );
    expect(rated).toMatchObject({ sessionId, rating: 5 });
    expect(removed).toBe('inUse');
    const ratings = await db()
      .selectFrom('session_ratings')
      .select('session_id')
      .where('event_id', '=', eventId)
      .execute();
    expect(ratings).toEqual([{ session_id: sessionId }]);
  });

  it('a member joining a community', async () => {
    const { communityId } = await call(createCommunity, {
      slug: `use-race-${Date.now()}`,
      name: 'Racers',
      timeZone: 'UTC',
      joinPolicy: 'open',
    });
    const [joined, removed] = await waitsFor(
      [joinCommunity, { communityId, name: 'Bo', email: 'bo@example.org' }],
      /^insert into "community_members"/,
      [deleteCommunity, { communityId }],
    );
    expect(joined, JSON.stringify(joined)).toBeTypeOf('object');
    expect(removed).toBe('inUse');
    const members = await db()
      .selectFrom('community_members')
      .select('community_id')
      .where('community_id', '=', communityId)
      .execute();
    expect(members).toHaveLength(1);
  });
});
