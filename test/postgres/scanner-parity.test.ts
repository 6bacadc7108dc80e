// The door's rules are written twice: in TypeScript (core/checkin/scanner.ts, the scan SQLite runs as
// statements one after another) and in PL/pgSQL (tessera_scan_v2, migration 0036, the scan
// PostgreSQL runs in one round trip). This test runs every scanner case through both, on PostgreSQL,
// each from the same rows in a transaction rolled back afterwards, and compares what they decided
// and what they left field by field: answer, check-in row, presence row, door count, first
// check-in. The refusals that need no lock (door-rules.js) are computed once for both
// (scanToRecord); the cases still run each through both, as the order of refusal against presence
// is the function's. PostgreSQL only (`node scripts/test-postgres.mjs`); on SQLite it skips.
import { beforeAll, describe, expect, it } from 'vitest';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { createDoor } from '../../core/checkin/create-door';
import { doorAndTicket, doorAndTicketReads } from '../../core/checkin/door-and-ticket';
import { insideDoor } from '../../core/checkin/door-inside';
import { scanInOneStatement } from '../../core/checkin/scan-in-one-statement';
import type { RecordedScan, ScanToRecord } from '../../core/checkin/scan-record';
import { scanStepByStep, scanToRecord } from '../../core/checkin/scanner';
import { createEvent } from '../../core/events/create-event';
import type { Ctx } from '../../core/platform/context';
import { silentLog } from '../../core/platform/log';
import { loadEvent } from '../../core/platform/pipeline/load-event';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import type { Db } from '../../db/connect';
import { type OrderStatus, type ScanResult, scanResults } from '../../db/values';
import { insertAddOn } from '../support/add-ons';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { onPostgres } from '../support/test-store';

/** One scanner case: the rows before the scan (all optional: an open door, a paid ticket, never in). */
interface ScanCase {
  name: string;
  direction: 'in' | 'out';
  door?: {
    capacity?: number;
    /** People inside before the scan; default 1 when the ticket's holder is inside, else 0. */
    inside?: number;
    reentry?: false;
    /** Not the main entrance: an admission sets no first check-in. */
    notMain?: true;
    /** The ticket types it admits: the ticket's own, or only another. */
    admits?: 'ownType' | 'otherType';
    /** It needs the add-on. */
    needsAddOn?: true;
  };
  ticket?: {
    cancelled?: true;
    order?: OrderStatus;
    holdsAddOn?: true;
    /** Checked in already at the main entrance, before or after this scan's moment (an offline scan). */
    checkedIn?: 'before' | 'after';
  };
  /** Where the holder stands at this door before the scan. */
  presence?: 'inside' | 'out';
  /** The result both must answer (so each case reaches the rule it names). */
  expected: ScanResult;
}

const scanCases: ScanCase[] = [
  { name: 'welcome: first entry at the main entrance', direction: 'in', expected: 'welcome' },
  {
    name: 'welcome at a door that is not the main entrance',
    direction: 'in',
    door: { notMain: true },
    expected: 'welcome',
  },
  {
    name: 'welcome at a capped door with room',
    direction: 'in',
    door: { capacity: 2, inside: 1 },
    expected: 'welcome',
  },
  {
    name: 'welcome with an earlier offline scan: first check-in moves back',
    direction: 'in',
    ticket: { checkedIn: 'after' },
    expected: 'welcome',
  },
  {
    name: 'welcome at the main entrance when checked in before: first check-in kept',
    direction: 'in',
    ticket: { checkedIn: 'before' },
    expected: 'welcome',
  },
  { name: 'welcome: a free order', direction: 'in', ticket: { order: 'free' }, expected: 'welcome' },
  { name: 'again: already inside (duplicate scan)', direction: 'in', presence: 'inside', expected: 'again' },
  {
    name: 'again: already inside a full capped door takes no place',
    direction: 'in',
    presence: 'inside',
    door: { capacity: 1, inside: 1 },
    expected: 'again',
  },
  { name: 'again: back in where re-entry is allowed', direction: 'in', presence: 'out', expected: 'again' },
  {
    name: 'again: back in at a capped door with room',
    direction: 'in',
    presence: 'out',
    door: { capacity: 1, inside: 0 },
    expected: 'again',
  },
  {
    name: 'noReentry: out before, the door lets no one in again',
    direction: 'in',
    presence: 'out',
    door: { reentry: false },
    expected: 'noReentry',
  },
  {
    name: 'noReentry at a capped door',
    direction: 'in',
    presence: 'out',
    door: { reentry: false, capacity: 5 },
    expected: 'noReentry',
  },
  {
    name: 'full: a capped door with no room',
    direction: 'in',
    door: { capacity: 2, inside: 2 },
    expected: 'full',
  },
  {
    name: 'full: back in at a capped door with no room',
    direction: 'in',
    presence: 'out',
    door: { capacity: 1, inside: 1 },
    expected: 'full',
  },
  { name: 'out: leaving the door', direction: 'out', presence: 'inside', expected: 'out' },
  {
    name: 'out: leaving a capped door',
    direction: 'out',
    presence: 'inside',
    door: { capacity: 3, inside: 2 },
    expected: 'out',
  },
  { name: 'out: never in (changes nothing)', direction: 'out', expected: 'out' },
  { name: 'out: already out (changes nothing)', direction: 'out', presence: 'out', expected: 'out' },
  {
    name: 'out: a cancelled ticket still goes out',
    direction: 'out',
    presence: 'inside',
    ticket: { cancelled: true },
    expected: 'out',
  },
  {
    name: 'out at a door whose count says nobody is inside (disagrees, logged)',
    direction: 'out',
    presence: 'inside',
    door: { inside: 0 },
    expected: 'out',
  },
  {
    name: 'out at a capped door whose count says nobody is inside',
    direction: 'out',
    presence: 'inside',
    door: { capacity: 4, inside: 0 },
    expected: 'out',
  },
  { name: 'cancelled', direction: 'in', ticket: { cancelled: true }, expected: 'cancelled' },
  {
    name: 'cancelled while inside: the refusal comes before again',
    direction: 'in',
    presence: 'inside',
    ticket: { cancelled: true },
    expected: 'cancelled',
  },
  { name: 'unpaid: a pending order', direction: 'in', ticket: { order: 'pending' }, expected: 'unpaid' },
  {
    name: 'unpaid: a refunded order at a full door',
    direction: 'in',
    ticket: { order: 'refunded' },
    door: { capacity: 1, inside: 1 },
    expected: 'unpaid',
  },
  {
    name: 'notOnList: the door admits only another ticket type',
    direction: 'in',
    door: { admits: 'otherType' },
    expected: 'notOnList',
  },
  {
    name: 'admitted: the door admits the ticket type',
    direction: 'in',
    door: { admits: 'ownType' },
    expected: 'welcome',
  },
  {
    name: 'noAddOn: the door needs an add-on the ticket lacks',
    direction: 'in',
    door: { needsAddOn: true },
    expected: 'noAddOn',
  },
  {
    name: 'admitted: the ticket holds the add-on the door needs',
    direction: 'in',
    door: { needsAddOn: true },
    ticket: { holdsAddOn: true },
    expected: 'welcome',
  },
  {
    name: 'noAddOn while out, re-entry refused too: the refusal first',
    direction: 'in',
    presence: 'out',
    door: { needsAddOn: true, reentry: false },
    expected: 'noAddOn',
  },
];

/** What a scan decided and left, as both implementations are compared. */
interface Decision {
  result: ScanResult;
  admitted: boolean;
  /** The attendee's first check-in was set (a new change position). */
  firstCheckInSet: boolean;
  /** The door's count and the presence rows disagreed (returned, or logged by the scan). */
  doorDisagrees: boolean;
  inside: number;
  presence: { inside: number; first_in_utc: string; last_scan_utc: string } | null;
  checkIn: Record<string, unknown>;
  attendee: { checked_in_utc: string | null; updated_utc: string; changeSeqIsTheScans: boolean };
}

type Implementation = (ctx: Ctx, scan: ScanToRecord) => Promise<RecordedScan>;

const scannedUtc = '2030-05-01T10:00:00.000Z';
const recordedUtc = '2030-05-01T10:00:05.000Z';

const { call, ctx: harnessCtx } = raceHarness('Scanner parity');

/** Rolls a case's transaction back, carrying what it read out. */
class RolledBack extends Error {
  constructor(readonly decision: Decision) {
    super('rolled back');
  }
}

describe.skipIf(!onPostgres)('the scanner rules in TypeScript and in PL/pgSQL', () => {
  let eventId: string;
  let ownType: string;
  let otherType: string;
  let addOnId: string;
  let doorId: string;
  let attendeeId: string;

  beforeAll(async () => {
    ({ eventId } = await call(createEvent, eventBody()));
    ({ ticketTypeId: ownType } = await call(createTicketType, { eventId, name: 'General', capacity: null }));
    ({ ticketTypeId: otherType } = await call(createTicketType, { eventId, name: 'VIP', capacity: null }));
    addOnId = await insertAddOn(harnessCtx().db, eventId, { name: 'Workshop' });
    ({ doorId } = await call(createDoor, { eventId, name: 'Front', main: true, capacity: null }));
    const { attendees } = await call(registerAttendees, {
      eventId,
      attendees: [{ ticketTypeId: ownType, firstName: 'Ada', lastName: 'Door', email: 'ada@example.org' }],
    });
    attendeeId = attendees[0].attendeeId;
  });

  /** Writes the case's rows in the transaction. */
  async function arrange(trx: Db, c: ScanCase): Promise<void> {
    const door = c.door ?? {};
    const ticket = c.ticket ?? {};
    await trx
      .updateTable('doors')
      .set({
        capacity: door.capacity ?? null,
        inside: door.inside ?? (c.presence === 'inside' ? 1 : 0),
        reentry: door.reentry === false ? 0 : 1,
        main: door.notMain ? 0 : 1,
        ticket_type_ids: JSON.stringify(
          door.admits === 'ownType' ? [ownType] : door.admits === 'otherType' ? [otherType] : [],
        ),
        add_on_ids: JSON.stringify(door.needsAddOn ? [addOnId] : []),
      })
      .where('id', '=', doorId)
      .execute();
    if (ticket.cancelled)
      await trx.updateTable('attendees').set({ status: 'cancelled' }).where('id', '=', attendeeId).execute();
    if (ticket.order) {
      const { order_id } = await trx
        .selectFrom('attendees')
        .select('order_id')
        .where('id', '=', attendeeId)
        .executeTakeFirstOrThrow();
      await trx.updateTable('orders').set({ status: ticket.order }).where('id', '=', order_id).execute();
    }
    if (ticket.holdsAddOn)
      await trx
        .insertInto('attendee_add_ons')
        .values({ attendee_id: attendeeId, add_on_id: addOnId, quantity: 1 })
        .execute();
    if (ticket.checkedIn) {
      const at = ticket.checkedIn === 'before' ? '2030-05-01T09:00:00.000Z' : '2030-05-01T11:00:00.000Z';
      await trx.updateTable('attendees').set({ checked_in_utc: at }).where('id', '=', attendeeId).execute();
    }
    if (c.presence)
      await trx
        .insertInto('door_presence')
        .values({
          door_id: doorId,
          attendee_id: attendeeId,
          inside: c.presence === 'inside' ? 1 : 0,
          first_in_utc: '2030-05-01T08:00:00.000Z',
          last_scan_utc: '2030-05-01T08:30:00.000Z',
        })
        .execute();
  }

  /** Runs the case through one implementation and reads what it left; everything is rolled back. */
  async function decide(c: ScanCase, implementation: Implementation): Promise<Decision> {
    try {
      await harnessCtx()
        .db.transaction()
        .execute(async (trx) => {
          await arrange(trx, c);
          let warned = false;
          const base = harnessCtx();
          const ctx: Ctx = {
            ...base,
            db: trx,
            clock: { now: () => new Date(recordedUtc) },
            services: {
              ...base.services,
              log: {
                ...silentLog,
                warn: () => {
                  warned = true;
                },
              },
            },
          };
          const event = await loadEvent(ctx, eventId);
          // The door and ticket as invoke reads them with the event (readsWithEvent), then picks them.
          const ticket = { attendeeId };
          const rows = await doorAndTicketReads(doorId, ticket).rows(ctx.db, {
            eventId,
            workspaceId: ctx.actor.workspaceId,
          });
          const { door, attendee } = doorAndTicket(ctx, rows, doorId, ticket);
          const scan = await scanToRecord(ctx, event, door, attendee, {
            direction: c.direction,
            scannedUtc,
            offline: true,
          });
          const answer = await implementation(ctx, scan);
          const presence =
            (await trx
              .selectFrom('door_presence')
              .select(['inside', 'first_in_utc', 'last_scan_utc'])
              .where('door_id', '=', doorId)
              .where('attendee_id', '=', attendeeId)
              .executeTakeFirst()) ?? null;
          const { id, change_txn, ...checkIn } = await trx
            .selectFrom('check_ins')
            .selectAll()
            .where('id', '=', answer.checkInId)
            .executeTakeFirstOrThrow();
          const after = await trx
            .selectFrom('attendees')
            .select(['checked_in_utc', 'updated_utc', 'change_seq'])
            .where('id', '=', attendeeId)
            .executeTakeFirstOrThrow();
          throw new RolledBack({
            result: answer.result,
            admitted: answer.admitted,
            firstCheckInSet: answer.changeSeq !== null,
            doorDisagrees: answer.doorDisagrees || warned,
            inside: await insideDoor(trx, doorId),
            presence: presence && { ...presence, inside: Number(presence.inside) },
            checkIn: { ...checkIn, admitted: Number(checkIn.admitted), offline: Number(checkIn.offline) },
            attendee: {
              checked_in_utc: after.checked_in_utc,
              updated_utc: after.updated_utc,
              changeSeqIsTheScans:
                answer.changeSeq !== null && Number(after.change_seq) === Number(answer.changeSeq),
            },
          });
        });
    } catch (error) {
      if (error instanceof RolledBack) return error.decision;
      throw error;
    }
    throw new Error('the case was not rolled back');
  }

  it.each(scanCases)('decides "$name" the same in both', async (c) => {
    const typescript = await decide(c, scanStepByStep);
    const plpgsql = await decide(c, scanInOneStatement);
    expect(typescript.result, 'TypeScript answers the case’s result').toBe(c.expected);
    expect(plpgsql, 'PL/pgSQL (tessera_scan_v2) decides as TypeScript (scanner.ts)').toEqual(typescript);
  });

  it('covers every result a scan can answer', () => {
    const results = new Set(scanCases.map((c) => c.expected));
    // Every result the store knows (db/values.ts): a new one fails here until a case covers it.
    for (const result of scanResults) expect(results).toContain(result);
  });
});
