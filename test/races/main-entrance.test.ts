// One entrance at most is an event's main entrance (a unique index holds it). Making a door the
// main one takes the mark from whichever door has it, then sets it: two such changes at once each
// took the mark from the door their read saw, so on PostgreSQL the second found a mark the first
// had just set and met the index (a 500, found by the outside probe's fuzzer). The mark is now
// taken under a lock of the event's main entrance (core/checkin/door-input.ts holdMainEntrance),
// held from before a door's creation decides whether it is the main one, and a door's change reads
// its row locked, so a change of another field does not write back a mark taken meanwhile.
// On PostgreSQL the first call is held just before its last write while the second runs until it
// waits; SQLite writes one call at a time, so there they run in turn and show only the answers.
import { describe, expect, it } from 'vitest';
import { createDoor } from '../../core/checkin/create-door';
import { updateDoor } from '../../core/checkin/update-door';
import { createEvent } from '../../core/events/create-event';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, waitsFor, db } = raceHarness('Main entrance');

/** The names of the event's doors marked main. */
async function mainDoors(eventId: string): Promise<string[]> {
  const rows = await db()
    .selectFrom('doors')
    .select('name')
    .where('event_id', '=', eventId)
    .where('main', '=', 1)
    .execute();
  return rows.map((r) => r.name);
}

/** An event with three entrances, the first of them the main one. */
async function threeEntrances() {
  const { eventId } = await call(createEvent, eventBody());
  const doors: Record<string, string> = {};
  for (const name of ['North', 'South', 'West'])
    doors[name] = (await call(createDoor, { eventId, name })).doorId;
  return { eventId, doors };
}

describe('the main entrance moved twice at once', () => {
  it('two doors made the main one: the second waits, then takes the mark from the first', async () => {
    const { eventId, doors } = await threeEntrances();
    expect(await mainDoors(eventId)).toEqual(['North']);
    const [south, west] = await waitsFor(
      [updateDoor, { eventId, doorId: doors.South, main: true }],
      /^update "doors" set "name"/,
      [updateDoor, { eventId, doorId: doors.West, main: true }],
    );
    expect(south).toMatchObject({ name: 'South', main: true });
    expect(west).toMatchObject({ name: 'West', main: true });
    expect(await mainDoors(eventId)).toEqual(['West']);
  });

  it("the main door renamed while another takes the mark: the rename keeps the other's mark", async () => {
    const { eventId, doors } = await threeEntrances();
    const [south, renamed] = await waitsFor(
      [updateDoor, { eventId, doorId: doors.South, main: true }],
      /^update "doors" set "name"/,
      [updateDoor, { eventId, doorId: doors.North, name: 'North gate' }],
    );
    expect(south).toMatchObject({ name: 'South', main: true });
    expect(renamed).toMatchObject({ name: 'North gate', main: false });
    expect(await mainDoors(eventId)).toEqual(['South']);
  });
});

describe("an event's first two entrances added at once", () => {
  it('the first is the main one; the second, waiting for it, is not', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const [first, second] = await waitsFor([createDoor, { eventId, name: 'North' }], /^insert into "doors"/, [
      createDoor,
      { eventId, name: 'South' },
    ]);
    expect(first).toMatchObject({ name: 'North', main: true });
    expect(second).toMatchObject({ name: 'South', main: false });
    expect(await mainDoors(eventId)).toEqual(['North']);
  });
});
