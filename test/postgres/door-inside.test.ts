// People inside an uncapped door kept in slots on PostgreSQL (migration 0036): a scan there holds
// no lock on the door's row that another scan would wait for, and a capacity set while scans are in
// flight stays exact (update-door.ts holds the row FOR UPDATE, the scan function reads the capacity
// FOR KEY SHARE). Each test holds a transaction of its own open, so what waits, and on what, is
// decided by the test, not by timing. PostgreSQL only (`npm run test:postgres`).
import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { checkInAttendee } from '../../core/checkin/check-in-attendee';
import { createDoor } from '../../core/checkin/create-door';
import { insideDoor } from '../../core/checkin/door-inside';
import { updateDoor } from '../../core/checkin/update-door';
import { createEvent } from '../../core/events/create-event';
import { type Clock, systemClock } from '../../core/platform/clock';
import type { WriteBatcher } from '../../core/platform/storage/write-batch';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { totalsSlots } from '../../db/row-triggers';
import type { Db } from '../../db/schema';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { signal } from '../support/signal';
import { onPostgres } from '../support/test-store';

const { call, callThrough, db } = raceHarness('Door inside');

/**
 * A write queue whose one transaction (on `store`) does its work, then stays open until `release`
 * fires (when `hold`): its locks are held meanwhile, as a scan or a change still in flight holds them.
 */
function heldOpen(store: Kysely<any> = db(), hold = true) {
  const done = signal();
  const release = signal();
  const writes = {
    run: (work: (trx: Db, moment: Clock) => Promise<unknown>) =>
      store.transaction().execute(async (trx) => {
        const out = await work(trx as Db, systemClock);
        done.fire();
        if (hold) await release.fired;
        return out;
      }),
  } as unknown as WriteBatcher;
  return { writes, done: done.fired, release };
}

/**
 * Whether `call` ends up waiting for a lock ('waits', seen in pg_stat_activity) or settles first
 * ('settles'); the look stops either way.
 */
async function waitsOrSettles(call: Promise<unknown>): Promise<'waits' | 'settles'> {
  let settled = false;
  const settles = call.then(
    () => 'settles' as const,
    () => 'settles' as const,
  );
  void settles.then(() => {
    settled = true;
  });
  const looking = (async () => {
    while (!settled) {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(db());
      if ((rows[0]?.n ?? 0) > 0) return 'waits' as const;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return 'settles' as const;
  })();
  return Promise.race([settles, looking]);
}

/** Whether another transaction could take the door's row as an update of its count does. */
async function rowFreeForCounting(doorId: string): Promise<boolean> {
  try {
    await db()
      .transaction()
      .execute((trx) => sql`select id from doors where id = ${doorId} for no key update nowait`.execute(trx));
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === '55P03') return false; // lock_not_available
    throw error;
  }
}

async function doorWithPeople(capacity: number | null, names: string[]) {
  const { eventId } = await call(createEvent, eventBody());
  const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Admission', capacity: null });
  const { doorId } = await call(createDoor, { eventId, name: 'Front', main: true, capacity });
  const { attendees } = await call(registerAttendees, {
    eventId,
    attendees: names.map((name) => ({
      ticketTypeId,
      firstName: name,
      lastName: 'Door',
      email: `${name.toLowerCase()}@example.org`,
    })),
  });
  const ids = attendees.map((a: { attendeeId: string }) => a.attendeeId) as string[];
  return { eventId, doorId, ids };
}

describe.skipIf(!onPostgres)('people inside an uncapped door on PostgreSQL', () => {
  it('a scan holds no lock on the door row another scan waits for (a capped door keeps its row lock)', async () => {
    const open = await doorWithPeople(null, ['Ada']);
    const scanning = heldOpen();
    const scan = callThrough(scanning.writes, checkInAttendee, {
      eventId: open.eventId,
      attendeeId: open.ids[0],
    });
    await scanning.done;
    const openFree = await rowFreeForCounting(open.doorId);
    scanning.release.fire();
    expect(openFree).toBe(true);
    expect((await scan).result).toBe('welcome');

    const capped = await doorWithPeople(5, ['Bo']);
    const held = heldOpen();
    const cappedScan = callThrough(held.writes, checkInAttendee, {
      eventId: capped.eventId,
      attendeeId: capped.ids[0],
    });
    await held.done;
    const cappedFree = await rowFreeForCounting(capped.doorId);
    held.release.fire();
    expect(cappedFree).toBe(false);
    expect((await cappedScan).result).toBe('welcome');
    expect([await insideDoor(db(), open.doorId), await insideDoor(db(), capped.doorId)]).toEqual([1, 1]);
  });

  it('lets a scan on a connection of another slot through while one at the same door is in flight', async () => {
    const { eventId, doorId, ids } = await doorWithPeople(null, ['Cy', 'Di']);
    await db()
      .connection()
      .execute(async (first) => {
        const slot = await slotOf(first);
        const scanning = heldOpen(first);
        const scan = callThrough(scanning.writes, checkInAttendee, { eventId, attendeeId: ids[0] });
        await scanning.done;
        // The pool's other connections, until one counts in another slot.
        await withConnectionNotIn(slot, async (other) => {
          const through = callThrough(heldOpen(other, false).writes, checkInAttendee, {
            eventId,
            attendeeId: ids[1],
          });
          const outcome = await waitsOrSettles(through);
          scanning.release.fire();
          expect(outcome).toBe('settles');
          expect((await through).result).toBe('welcome');
        });
        expect((await scan).result).toBe('welcome');
      });
    expect(await insideDoor(db(), doorId)).toBe(2);
  });

  it('setting a capacity waits for the scans in flight, and counts them', async () => {
    const { eventId, doorId, ids } = await doorWithPeople(null, ['Ed', 'Flo']);
    const scanning = heldOpen();
    const scan = callThrough(scanning.writes, checkInAttendee, { eventId, attendeeId: ids[0] });
    await scanning.done;
    const change = call(updateDoor, { eventId, doorId, capacity: 1 });
    // Had the change not waited for the scan, it would be done here, with nobody counted inside.
    const outcome = await waitsOrSettles(change);
    scanning.release.fire();
    expect(outcome).toBe('waits');
    expect((await scan).result).toBe('welcome');
    expect((await change).capacity).toBe(1);
    expect(await insideDoor(db(), doorId)).toBe(1);
    expect((await call(checkInAttendee, { eventId, attendeeId: ids[1] })).result).toBe('full');
  });

  it('a scan waits for a capacity being set, then checks it', async () => {
    const { eventId, doorId, ids } = await doorWithPeople(null, ['Gus', 'Hal']);
    expect((await call(checkInAttendee, { eventId, attendeeId: ids[0] })).result).toBe('welcome');
    const changing = heldOpen();
    const change = callThrough(changing.writes, updateDoor, { eventId, doorId, capacity: 1 });
    await changing.done;
    const scan = call(checkInAttendee, { eventId, attendeeId: ids[1] });
    const outcome = await waitsOrSettles(scan);
    changing.release.fire();
    expect(outcome).toBe('waits');
    expect((await change).capacity).toBe(1);
    // Read before the change committed, the capacity would have been none: a second person inside.
    expect((await scan).result).toBe('full');
    expect(await insideDoor(db(), doorId)).toBe(1);
  });
});

async function slotOf(connection: Kysely<any>): Promise<number> {
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection);
  return Number(rows[0]!.pid) % totalsSlots;
}

/** Runs `work` on a connection of the pool whose slot is not `slot` (holding the others meanwhile). */
async function withConnectionNotIn(slot: number, work: (c: Kysely<any>) => Promise<void>): Promise<void> {
  await db()
    .connection()
    .execute(async (c) => {
      if ((await slotOf(c)) !== slot) return work(c);
      return withConnectionNotIn(slot, work);
    });
}
