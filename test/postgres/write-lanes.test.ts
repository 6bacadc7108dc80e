// Several write transactions of one process in flight at once on PostgreSQL (core/platform/storage/
// write-batch.ts, TESSERA_DB_CONNECTIONS), and the lock order that keeps them from waiting on each
// other in a circle. Each test holds a row lock from a transaction of its own, so what waits, and
// on what, is decided by the test, not by timing. PostgreSQL only (`npm run test:postgres`).
import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { checkInAttendee } from '../../core/checkin/check-in-attendee';
import { createDoor } from '../../core/checkin/create-door';
import { uploadOfflineScans } from '../../core/checkin/upload-offline-scans';
import { createEvent } from '../../core/events/create-event';
import { refundOrder } from '../../core/orders/refund-order';
import { systemClock } from '../../core/platform/clock';
import { WriteBatcher, writeLanes } from '../../core/platform/storage/write-batch';
import { createRoom } from '../../core/programme/create-room';
import { createSession } from '../../core/programme/create-session';
import { listSessions } from '../../core/programme/list-sessions';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { transactionLock } from '../../db/dialect';
import { eventBody } from '../support/fixtures';
import { someoneWaitsOnALock } from '../support/lock-waits';
import { raceHarness } from '../support/race-harness';
import { signal } from '../support/signal';
import { onPostgres } from '../support/test-store';

const { call, callThrough, db } = raceHarness('Write lanes');

/** Holds `lock`'s row locks in a transaction of the test's own until `release` fires. */
function holding(lock: (trx: Kysely<any>) => Promise<unknown>) {
  const locked = signal();
  const release = signal();
  let trxOf!: Kysely<any>;
  const done = db()
    .transaction()
    .execute(async (trx) => {
      trxOf = trx;
      await lock(trx);
      locked.fire();
      await release.fired;
    });
  return { locked: locked.fired, release, done, trx: () => trxOf };
}

/** A session an hour long, in `roomId` (null: no room). */
const session = (eventId: string, title: string, roomId: string | null) => ({
  eventId,
  title,
  startsLocal: '2027-05-01T10:00',
  endsLocal: '2027-05-01T11:00',
  roomId,
});

const person = (ticketTypeId: string, name: string) => ({
  ticketTypeId,
  firstName: name,
  lastName: 'Lane',
  email: `${name.toLowerCase()}@example.org`,
});

describe.skipIf(!onPostgres)('several write transactions of one process on PostgreSQL', () => {
  it('lets a scan at one door through while a scan at another waits for its door', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Admission', capacity: null });
    const front = await call(createDoor, { eventId, name: 'Front', main: true });
    const side = await call(createDoor, { eventId, name: 'Side' });
    const { attendees } = await call(registerAttendees, {
      eventId,
      attendees: [person(ticketTypeId, 'Ada'), person(ticketTypeId, 'Bo')],
    });
    const [ada, bo] = attendees.map((a: { attendeeId: string }) => a.attendeeId);

    // Someone else's transaction holds the front door's row (as a long scan there would).
    const frontHeld = holding((trx) =>
      sql`select id from doors where id = ${front.doorId} for update`.execute(trx),
    );
    await frontHeld.locked;
    // Four writers in flight.
    const lanes = new WriteBatcher(db(), writeLanes(4));
    let waitingScanDone = false;
    const waiting = callThrough(lanes, checkInAttendee, {
      eventId,
      attendeeId: ada,
      doorId: front.doorId,
    }).finally(() => {
      waitingScanDone = true;
    });
    await someoneWaitsOnALock(db());

    // One transaction at a time, this scan would queue behind the waiting one for as long as it waits.
    const through = await callThrough(lanes, checkInAttendee, {
      eventId,
      attendeeId: bo,
      doorId: side.doorId,
    });
    expect(through.result).toBe('welcome');
    expect(waitingScanDone).toBe(false);

    frontHeld.release.fire();
    await frontHeld.done;
    expect((await waiting).result).toBe('welcome');
  });

  it('lets a scan start while a write ahead of it waits on a lock with its first statement: the position of that write goes alone', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Admission', capacity: null });
    await call(createDoor, { eventId, name: 'Front', main: true });
    const { attendees } = await call(registerAttendees, { eventId, attendees: [person(ticketTypeId, 'Cy')] });
    const other = await call(createEvent, eventBody());

    // Someone holds the other event's row as its removal would: a room's creation there waits
    // with its first statement (it holds its event as a row it refers to).
    const eventHeld = holding((trx) =>
      sql`select id from events where id = ${other.eventId} for update`.execute(trx),
    );
    await eventHeld.locked;
    const lanes = new WriteBatcher(db(), writeLanes(4));
    let roomDone = false;
    const room = callThrough(lanes, createRoom, { eventId: other.eventId, name: 'Hall' }).finally(() => {
      roomDone = true;
    });
    await someoneWaitsOnALock(db());

    // The scan takes its change position after the room's: sent with the room's locking read, that
    // one would come only once the lock is let go, and the scan with it.
    const scan = await callThrough(lanes, checkInAttendee, { eventId, attendeeId: attendees[0].attendeeId });
    expect(scan.result).toBe('welcome');
    expect(roomDone).toBe(false);

    eventHeld.release.fire();
    await eventHeld.done;
    expect((await room).name).toBe('Hall');
  });

  it('never shows a change above one still in flight, so the newest updatedUtc seen misses nothing; a page asked for after an answer waits for it to show', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { roomId } = await call(createRoom, { eventId, name: 'Hall' });
    // A clock that moves on at every reading: each write's moment is later than the last's.
    let tick = Date.parse('2027-04-01T00:00:00Z');
    const ticking = {
      now: () => {
        tick += 1000;
        return new Date(tick);
      },
    };
    const lanes = new WriteBatcher(db(), writeLanes(4), ticking);

    // The first write reads its moment, then waits (before writing anything) for the room, which
    // someone else holds; the second starts later, commits and is answered.
    const room = holding((trx) => transactionLock(trx, `room ${roomId}`));
    await room.locked;
    let firstDone = false;
    const first = callThrough(lanes, createSession, session(eventId, 'Placed', roomId)).finally(() => {
      firstDone = true;
    });
    await someoneWaitsOnALock(db());
    const second = await callThrough(lanes, createSession, session(eventId, 'Unplaced', null));
    expect(firstDone).toBe(false);

    // Oldest change first: the second's change is held back while the first, begun earlier, is in
    // flight. Shown now, its updatedUtc would be above the first's, and an integration passing it
    // as updatedSince would never see the first. (Read beside the lanes, as another process would.)
    const during = await call(listSessions, { eventId });
    expect(during.data.map((s: { sessionId: string }) => s.sessionId)).not.toContain(second.sessionId);

    // A page asked for through the same lanes after the second's answer waits for the first to end,
    // so the writer of the second finds it.
    let pageDone = false;
    const page = callThrough(lanes, listSessions, { eventId }).finally(() => {
      pageDone = true;
    });
    // (Well inside the most a page waits, core/platform/storage/write-batch.ts pageWaitsAtMostMs.)
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(pageDone).toBe(false);

    room.release.fire();
    await room.done;
    const placed = await first;
    const sessionIds = (list: { data: { sessionId: string }[] }) => list.data.map((s) => s.sessionId);
    expect(sessionIds(await page)).toEqual([placed.sessionId, second.sessionId]);
    const after = await call(listSessions, { eventId, updatedSince: second.updatedUtc });
    const both = await call(listSessions, { eventId });
    expect(sessionIds(both)).toEqual([placed.sessionId, second.sessionId]);
    expect(placed.updatedUtc < second.updatedUtc).toBe(true);
    expect(sessionIds(after)).toEqual([second.sessionId]);
  });

  it('answers a page at once beside a write that waits on a lock when nothing answered came after it', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { roomId } = await call(createRoom, { eventId, name: 'Hall' });
    // A bound no test outlives: had the page waited for the held write, it would never answer.
    const lanes = new WriteBatcher(db(), writeLanes(4), systemClock, 60 * 60_000);
    const room = holding((trx) => transactionLock(trx, `room ${roomId}`));
    await room.locked;
    let heldDone = false;
    const held = callThrough(lanes, createSession, session(eventId, 'Held', roomId)).finally(() => {
      heldDone = true;
    });
    await someoneWaitsOnALock(db());
    // Its client has no answer yet, and nothing answered sits above it: the page has nothing to wait for.
    const page = await callThrough(lanes, listSessions, { eventId });
    expect(page.data).toEqual([]);
    expect(heldDone).toBe(false);
    room.release.fire();
    await room.done;
    await held;
  });

  it('answers a page after its bound without the answered change above a write that waits on a lock for long', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { roomId } = await call(createRoom, { eventId, name: 'Hall' });
    const lanes = new WriteBatcher(db(), writeLanes(4), systemClock, 250);
    const room = holding((trx) => transactionLock(trx, `room ${roomId}`));
    await room.locked;
    const held = callThrough(lanes, createSession, session(eventId, 'Held', roomId));
    await someoneWaitsOnALock(db());
    const answered = await callThrough(lanes, createSession, session(eventId, 'Answered', null));
    const asked = performance.now();
    const page = await callThrough(lanes, listSessions, { eventId });
    // It waited for the held write its bound long, then answered without the change above it.
    expect(performance.now() - asked).toBeGreaterThanOrEqual(200);
    expect(page.data).toEqual([]);
    room.release.fire();
    await room.done;
    const placed = await held;
    const sessionIds = (await callThrough(lanes, listSessions, { eventId })).data.map(
      (s: { sessionId: string }) => s.sessionId,
    );
    expect(sessionIds).toEqual([placed.sessionId, answered.sessionId]);
  });

  it('gives a refund’s places back in the order a registration takes them, so neither waits on the other in a circle', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const types = await Promise.all(
      ['Day', 'Evening'].map((name) => call(createTicketType, { eventId, name, capacity: 10 })),
    );
    const [first, second] = types.map((t: { ticketTypeId: string }) => t.ticketTypeId).sort() as [
      string,
      string,
    ];
    // One order, its first ticket of the type whose id sorts second.
    const { orderId, attendees } = await call(registerAttendees, {
      eventId,
      attendees: [person(second, 'Cy'), person(first, 'Di')],
    });
    await db().updateTable('orders').set({ status: 'paid' }).where('id', '=', orderId).execute();
    const attendeeIds = attendees.map((a: { attendeeId: string }) => a.attendeeId);

    // A registration of both types between its two updates: it holds the first type's row.
    const registration = holding((trx) =>
      sql`update ticket_types set taken = taken where id = ${first}`.execute(trx),
    );
    await registration.locked;
    const refund = call(refundOrder, { eventId, orderId, attendeeIds });
    await someoneWaitsOnALock(db());
    // Now it takes the second type's row. Had the refund given back the second type's place first
    // (its tickets' order), each would wait for the other: PostgreSQL would end this one (it looks
    // for the circle after 10 ms, the refund after a second).
    try {
      await sql`set local deadlock_timeout = '10ms'`.execute(registration.trx());
      await sql`update ticket_types set taken = taken where id = ${second}`.execute(registration.trx());
    } finally {
      registration.release.fire();
    }
    await registration.done;

    expect((await refund).status).toBe('refunded');
    const taken = await db()
      .selectFrom('ticket_types')
      .select(['id', 'taken'])
      .where('event_id', '=', eventId)
      .orderBy('id')
      .execute();
    expect(taken).toEqual([
      { id: first, taken: 0 },
      { id: second, taken: 0 },
    ]);
  });

  it('takes the doors of an offline upload in the order of their ids, whatever order its scans are in', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Admission', capacity: null });
    const doors = await Promise.all(
      ['North', 'South'].map((name, i) => call(createDoor, { eventId, name, main: i === 0 })),
    );
    const [first, second] = doors.map((d: { doorId: string }) => d.doorId).sort() as [string, string];
    const { attendees } = await call(registerAttendees, {
      eventId,
      attendees: [person(ticketTypeId, 'Ed'), person(ticketTypeId, 'Flo')],
    });
    const [ed, flo] = attendees.map((a: { attendeeId: string }) => a.attendeeId);

    // Another upload (or scan) at the first door holds its row.
    const other = holding((trx) => sql`update doors set inside = inside where id = ${first}`.execute(trx));
    await other.locked;
    // Its scans in time order go through the second door, then the first.
    const upload = call(uploadOfflineScans, {
      eventId,
      scans: [
        { attendeeId: ed, doorId: second, scannedUtc: '2026-06-01T09:00:00Z' },
        { attendeeId: flo, doorId: first, scannedUtc: '2026-06-01T09:01:00Z' },
      ],
    });
    await someoneWaitsOnALock(db());
    // The other now takes the second door. Had the upload taken the doors in its scans' order, it
    // would hold the second and wait for the first: a circle, ending the other after 10 ms.
    try {
      await sql`set local deadlock_timeout = '10ms'`.execute(other.trx());
      await sql`update doors set inside = inside where id = ${second}`.execute(other.trx());
    } finally {
      other.release.fire();
    }
    await other.done;
    expect((await upload).data.map((a: { result: string }) => a.result)).toEqual(['welcome', 'welcome']);
  });

  it('keeps every guarantee with many registrations and scans of one process in flight', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Few', capacity: 12 });
    const door = await call(createDoor, { eventId, name: 'Front', main: true, capacity: 5 });
    const answers = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        call(registerAttendees, { eventId, attendees: [person(ticketTypeId, `P${i}`)] }),
      ),
    );
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(12);
    const { taken } = await db()
      .selectFrom('ticket_types')
      .select('taken')
      .where('id', '=', ticketTypeId)
      .executeTakeFirstOrThrow();
    expect(taken).toBe(12);

    const ids = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value.attendees[0].attendeeId] : []));
    // Each ticket scanned by two stewards at once; the door holds five.
    const scans = await Promise.all(
      [...ids, ...ids].map((attendeeId) =>
        call(checkInAttendee, { eventId, attendeeId, doorId: door.doorId }),
      ),
    );
    expect(scans.filter((s) => s.result === 'welcome')).toHaveLength(5);
    expect(scans.filter((s) => s.result === 'full').length).toBeGreaterThanOrEqual(14);
    const inside = await db()
      .selectFrom('doors')
      .select('inside')
      .where('id', '=', door.doorId)
      .executeTakeFirstOrThrow();
    expect(inside.inside).toBe(5);
  });
});
