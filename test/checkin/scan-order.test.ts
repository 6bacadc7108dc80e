// Door scans are listed in checkInId order, and checkInId grows in the order scans become visible
// (spec CheckIn: "only grows"; integrations poll with `after`). On PostgreSQL two scans of one
// door run at once in transactions of their own: here the one that takes the lower id commits after
// the one with the higher, the test deciding each step with signals (no timing), and a poller with
// `after` between the commits must neither skip the late scan nor see ids out of order. SQLite
// writes one transaction at a time, so there the scans run in turn.
import { describe, expect, it } from 'vitest';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { checkInAttendee } from '../../core/checkin/check-in-attendee';
import { createDoor } from '../../core/checkin/create-door';
import { listCheckIns } from '../../core/checkin/list-check-ins';
import { createEvent } from '../../core/events/create-event';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { type SteppedWrite, steppedWrite } from '../support/stepped-write';
import { onPostgres } from '../support/test-store';

const { call, callThrough, db } = raceHarness('Scan order');

/** An event with a main entrance and two people with tickets. */
async function doorWithTwo() {
  const { eventId } = await call(createEvent, eventBody());
  const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Admission', capacity: null });
  await call(createDoor, { eventId, name: 'Front', main: true });
  const { attendees } = await call(registerAttendees, {
    eventId,
    attendees: ['Ada', 'Bo'].map((name) => ({
      ticketTypeId,
      firstName: name,
      lastName: 'Order',
      email: `${name.toLowerCase()}@example.org`,
    })),
  });
  const [ada, bo] = attendees.map((a: { attendeeId: string }) => a.attendeeId) as [string, string];
  return { eventId, ada, bo };
}

// Scans going out of a door nobody is inside: each writes its check-in and nothing another scan's
// transaction could hold, so neither held scan waits for the other.
const goingOut = (eventId: string, attendeeId: string) => ({ eventId, attendeeId, direction: 'out' });

/**
 * Two scans, `lower` taking the lower checkInId and committing last; `between` runs after the first
 * commit. On PostgreSQL the scan that takes its id second began first (the smaller transaction id,
 * as a scan that then waited on a lock), or, with `lowerBeganFirst`, second. On SQLite, in turn.
 */
async function scansCommittedOutOfIdOrder(
  eventId: string,
  [lower, higher]: [string, string],
  between: () => Promise<void> = async () => {},
  lowerBeganFirst = false,
): Promise<{ lowerId: number; higherId: number }> {
  if (!onPostgres) {
    const first = await call(checkInAttendee, goingOut(eventId, lower));
    await between();
    const second = await call(checkInAttendee, goingOut(eventId, higher));
    return { lowerId: first.checkInId, higherId: second.checkInId };
  }
  const late = steppedWrite(db());
  const early = steppedWrite(db());
  const begin = async (write: SteppedWrite, attendeeId: string) => {
    const scan = callThrough(write.writes, checkInAttendee, goingOut(eventId, attendeeId));
    await write.began;
    return { scan };
  };
  let earlyScan: Promise<{ checkInId: number }>;
  let lateScan: Promise<{ checkInId: number }>;
  if (lowerBeganFirst) {
    ({ scan: lateScan } = await begin(late, lower));
    ({ scan: earlyScan } = await begin(early, higher));
    expect(late.txn()).toBeLessThan(early.txn());
  } else {
    ({ scan: earlyScan } = await begin(early, higher));
    ({ scan: lateScan } = await begin(late, lower));
    expect(late.txn()).toBeGreaterThan(early.txn());
  }
  // The scan committing last takes its checkInId first, then the other.
  late.go.fire();
  await late.written;
  early.go.fire();
  await early.written;
  early.commit.fire();
  const higherId = (await earlyScan).checkInId;
  await between();
  late.commit.fire();
  const lowerId = (await lateScan).checkInId;
  return { lowerId, higherId };
}

type Listed = { data: { checkInId: number }[]; after: number };
const ids = (page: Listed) => page.data.map((c) => c.checkInId);

describe('door scans in checkInId order', () => {
  it('lists door scans by default in checkInId order when scans commit out of their id order', async () => {
    const { eventId, ada, bo } = await doorWithTwo();
    const { lowerId, higherId } = await scansCommittedOutOfIdOrder(eventId, [ada, bo]);
    expect(lowerId).toBeLessThan(higherId);
    const page: Listed = await call(listCheckIns, { eventId });
    expect(ids(page)).toEqual([lowerId, higherId]);
    expect(page.after).toBe(higherId);
  });

  it.each([
    ['the scan holding the higher id began first', false],
    ['the scan holding the lower id began first', true],
  ])(
    'gives a poller with after each scan once, every id above the after it sent, when the lower id commits last (%s)',
    async (_, lowerBeganFirst) => {
      const { eventId, ada, bo } = await doorWithTwo();
      const seen: number[] = [];
      let after = 0;
      const poll = async () => {
        const page: Listed = await call(listCheckIns, { eventId, after });
        for (const id of ids(page)) expect(id, `an id above after=${after}`).toBeGreaterThan(after);
        seen.push(...ids(page));
        after = page.after;
      };
      const { lowerId, higherId } = await scansCommittedOutOfIdOrder(
        eventId,
        [ada, bo],
        poll,
        lowerBeganFirst,
      );
      await poll();
      expect(seen).toEqual([lowerId, higherId]);
    },
  );
});
