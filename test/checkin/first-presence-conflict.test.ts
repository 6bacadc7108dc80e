// The first-presence conflict at a door (core/checkin/scanner.ts and tessera_scan_v2): a scan that
// read no presence row, took a place and then finds the person's presence row written meanwhile
// (another scanner welcomed them a moment ago) answers again, gives its place back and keeps one
// row. Tested one request at a time: the other scanner's row is written between the scan's read and
// its insert by a trigger on the door's count (test/support/write-in-between.ts), on a capped door,
// where both stores update the count before the presence row. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { type ApiAnswer, startTestServer, type TestServer } from '../support/server';
import { writeInBetween } from '../support/write-in-between';

let t: TestServer;
let key: string;
let e: DoorEvent;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('First presence');
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  e = await seedDoorEvent(t, workspaceId, key);
});
afterAll(async () => t.close());

async function doorState(attendeeId: string) {
  const db = t.server.services.db;
  const door = await db
    .selectFrom('doors')
    .select('inside')
    .where('id', '=', e.doors.small)
    .executeTakeFirstOrThrow();
  const presence = await db
    .selectFrom('door_presence')
    .select('inside')
    .where('door_id', '=', e.doors.small)
    .where('attendee_id', '=', attendeeId)
    .execute();
  return { inside: Number(door.inside), presence: presence.map((p) => Number(p.inside)) };
}

describe('two first entries of one ticket at a door', () => {
  it('answers again, admitted, and gives back its place when another scanner welcomed the person meanwhile', async () => {
    const [a] = await e.register(e.general);
    const db = t.server.services.db;
    // The other scanner's place is counted already; its presence row comes between this scan's
    // read and its insert, when this scan takes its place.
    await db.updateTable('doors').set({ inside: 1 }).where('id', '=', e.doors.small).execute();
    const remove = await writeInBetween(db, {
      table: 'doors',
      on: 'update of inside',
      when: `new.id = '${e.doors.small}' and new.inside > old.inside`,
      statement: `insert into door_presence (door_id, attendee_id, inside, first_in_utc, last_scan_utc)
        values (new.id, '${a}', 1, '2030-05-01T09:00:00.000Z', '2030-05-01T09:00:00.000Z')`,
    });
    let res: ApiAnswer;
    try {
      res = await t.api(`/events/${e.eventId}/attendees/${a}/check-in`, {
        key,
        method: 'POST',
        body: { doorId: e.doors.small },
      });
    } finally {
      await remove();
    }
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'again', admitted: true });
    // One person inside, one presence row: the place this scan took was given back.
    expect(await doorState(a!)).toEqual({ inside: 1, presence: [1] });
    const recorded = await db
      .selectFrom('check_ins')
      .select(['result', 'admitted'])
      .where('id', '=', res.body.checkInId)
      .executeTakeFirstOrThrow();
    expect({ ...recorded, admitted: Number(recorded.admitted) }).toEqual({ result: 'again', admitted: 1 });
  });

  it('welcomes and takes one place when nobody welcomed the person before', async () => {
    const [a] = await e.register(e.general);
    const before = (await doorState(a!)).inside;
    const res = await t.api(`/events/${e.eventId}/attendees/${a}/check-in`, {
      key,
      method: 'POST',
      body: { doorId: e.doors.small },
    });
    expect(res.body).toMatchObject({ result: 'welcome', admitted: true });
    expect(await doorState(a!)).toEqual({ inside: before + 1, presence: [1] });
  });
});
