// A session may not have more seats than its room. A room's change lowering its capacity and a
// session's change (or creation) raising the session's, each right alone, together break that. On
// PostgreSQL the room is locked for its change before its sessions are checked (db/dialect.ts
// changingRow), and a session's write holds the room shared while it checks (sharedRow), so one
// waits for the other and checks against it. Here the room's change is held once it has read while
// the session's runs to its end: it then finds the session's seats and is refused as a single
// change below them is (400 invalidRequest). Before the lock it had checked already and was
// answered, leaving a session of 80 seats in a room of 60. SQLite writes one call at a time.
// The other order: a session's write that checked the room is held before it writes its row
// (heldAt) while the room is made smaller. The session holds the room shared since it read it, so
// the room's change waits (PostgreSQL shows it waiting on the lock), then finds the session's seats.
// Without the shared hold the room's change was answered meanwhile, and the session then wrote 80
// seats into a room of 60.
import { describe, expect, it } from 'vitest';
import { createEvent } from '../../core/events/create-event';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { createRoom } from '../../core/programme/create-room';
import { createSession } from '../../core/programme/create-session';
import { updateRoom } from '../../core/programme/update-room';
import { updateSession } from '../../core/programme/update-session';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, heldOrInTurn, waitsFor, db } = raceHarness('Capacity beside capacity');

/** The room's change held once it has read while the other call runs to its end (in turn on SQLite). */
const roomHeldWhile = (room: unknown, other: [AnyOperation, unknown]) =>
  heldOrInTurn([updateRoom, room], other);

const day = (time: string) => `2027-05-01T${time}`;

/** A room of 100 seats with a session of 50 in it. */
async function roomWithSession() {
  const { eventId } = await call(createEvent, eventBody());
  const { roomId } = await call(createRoom, { eventId, name: 'Hall A', capacity: 100 });
  const { sessionId } = await call(createSession, {
    eventId,
    title: 'Keynote',
    startsLocal: day('10:00'),
    endsLocal: day('11:00'),
    roomId,
    capacity: 50,
  });
  return { eventId, roomId, sessionId };
}

/** The room's seats and the most any of its sessions has. */
async function seats(roomId: string) {
  const room = await db()
    .selectFrom('rooms')
    .select('capacity')
    .where('id', '=', roomId)
    .executeTakeFirstOrThrow();
  const sessions = await db()
    .selectFrom('sessions')
    .select('capacity')
    .where('room_id', '=', roomId)
    .execute();
  return { room: room.capacity, most: Math.max(...sessions.map((s) => s.capacity ?? 0)) };
}

describe('a room made smaller beside a session made larger', () => {
  it('refuses the room once the session has more seats; no session has more seats than its room', async () => {
    const { eventId, roomId, sessionId } = await roomWithSession();
    const [room, session] = await roomHeldWhile({ eventId, roomId, capacity: 60 }, [
      updateSession,
      { eventId, sessionId, capacity: 80 },
    ]);
    expect(session).toMatchObject({ sessionId, capacity: 80 });
    expect(room).toBe('invalidRequest');
    const now = await seats(roomId);
    expect(now).toEqual({ room: 100, most: 80 });
  });

  it('does the same beside a session made in the room with more seats than the room will have', async () => {
    const { eventId, roomId } = await roomWithSession();
    const workshop = {
      eventId,
      title: 'Workshop',
      startsLocal: day('12:00'),
      endsLocal: day('13:00'),
      roomId,
    };
    const [room, session] = await roomHeldWhile({ eventId, roomId, capacity: 60 }, [
      createSession,
      { ...workshop, capacity: 80 },
    ]);
    expect(session).toMatchObject({ title: 'Workshop', capacity: 80 });
    expect(room).toBe('invalidRequest');
    expect(await seats(roomId)).toEqual({ room: 100, most: 80 });
  });
});

describe("a session's write that checked its room, held before it writes, while the room is made smaller", () => {
  it("a session's change: the room's change waits, then is refused", async () => {
    const { eventId, roomId, sessionId } = await roomWithSession();
    const [session, room] = await waitsFor(
      [updateSession, { eventId, sessionId, capacity: 80 }],
      /^update "sessions"/,
      [updateRoom, { eventId, roomId, capacity: 60 }],
    );
    expect(session).toMatchObject({ sessionId, capacity: 80 });
    expect(room).toBe('invalidRequest');
    expect(await seats(roomId)).toEqual({ room: 100, most: 80 });
  });

  it('a new session in the room: the same', async () => {
    const { eventId, roomId } = await roomWithSession();
    const [session, room] = await waitsFor(
      [
        createSession,
        {
          eventId,
          title: 'Workshop',
          startsLocal: day('12:00'),
          endsLocal: day('13:00'),
          roomId,
          capacity: 80,
        },
      ],
      /^insert into "sessions"/,
      [updateRoom, { eventId, roomId, capacity: 60 }],
    );
    expect(session).toMatchObject({ title: 'Workshop', capacity: 80 });
    expect(room).toBe('invalidRequest');
    expect(await seats(roomId)).toEqual({ room: 100, most: 80 });
  });
});
