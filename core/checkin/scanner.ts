// The steward's scanner rules, shared by the live check-in and the offline upload:
// welcome the first time, again after that, out for a scan going out; refusals cancelled,
// unpaid, notOnList, noAddOn, full and noReentry. The door's inside count changes only in one
// conditional update with its capacity check, and a person's presence at a door is one row, so
// concurrent scans can neither welcome twice nor overfill a door.
import { sql } from 'kysely';
import type { DoorRow, EventRow } from '../../db/schema';
import { nextChangeSeq } from '../../db/sequence';
import { toFlag } from '../../db/values';
import { eventRef } from '../attendees/attendee-message';
import type { AttendeeJoinedRow } from '../attendees/attendee-view';
import { attendeeView } from '../attendees/attendee-view';
import { isValidTicket } from '../orders/order-status';
import type { Ctx } from '../platform/context';
import { emit } from '../platform/outbox';
import { checkInView, type ScanResult } from './check-in-view';

export interface Scan {
  direction: 'in' | 'out';
  scannedUtc: string;
  offline: boolean;
}

export interface ScanOutcome {
  checkInId: number;
  result: ScanResult;
  admitted: boolean;
  /** The attendee as it is after the scan. */
  attendee: AttendeeJoinedRow;
}

type Refusal = Extract<ScanResult, 'cancelled' | 'unpaid' | 'notOnList' | 'noAddOn'>;

async function refusalFor(ctx: Ctx, door: DoorRow, attendee: AttendeeJoinedRow): Promise<Refusal | null> {
  if (attendee.status === 'cancelled') return 'cancelled';
  if (!isValidTicket(attendee.status, attendee.order_status)) return 'unpaid';
  const admits = JSON.parse(door.ticket_type_ids) as string[];
  if (admits.length > 0 && !admits.includes(attendee.ticket_type_id)) return 'notOnList';
  const needs = JSON.parse(door.add_on_ids) as string[];
  if (needs.length > 0) {
    const held = await ctx.db
      .selectFrom('attendee_add_ons')
      .select('add_on_id')
      .where('attendee_id', '=', attendee.id)
      .where('add_on_id', 'in', needs)
      .executeTakeFirst();
    if (!held) return 'noAddOn';
  }
  return null;
}

/** Takes a place inside the door; false when it is full. */
async function enter(ctx: Ctx, door: DoorRow): Promise<boolean> {
  const result = await ctx.db
    .updateTable('doors')
    .set({ inside: sql`inside + 1` })
    .where('id', '=', door.id)
    .where((eb) => eb.or([eb('capacity', 'is', null), eb('inside', '<', eb.ref('capacity'))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Gives the place inside back. A door already at zero inside means its count and the presence
 * rows disagree: it stays at zero (the schema refuses a negative count) and that is logged.
 */
async function leave(ctx: Ctx, door: DoorRow): Promise<void> {
  const result = await ctx.db
    .updateTable('doors')
    .set({ inside: sql`inside - 1` })
    .where('id', '=', door.id)
    .where('inside', '>', 0)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    ctx.services.log.warn(
      { doorId: door.id, workspaceId: ctx.actor.workspaceId },
      'someone left a door with nobody inside: its inside count and the presence rows disagree',
    );
  }
}

async function decide(
  ctx: Ctx,
  door: DoorRow,
  attendee: AttendeeJoinedRow,
  scan: Scan,
): Promise<{ result: ScanResult; admitted: boolean }> {
  const presence = await ctx.db
    .selectFrom('door_presence')
    .select('inside')
    .where('door_id', '=', door.id)
    .where('attendee_id', '=', attendee.id)
    .executeTakeFirst();

  if (scan.direction === 'out') {
    if (presence?.inside === 1) {
      await ctx.db
        .updateTable('door_presence')
        .set({ inside: 0, last_scan_utc: scan.scannedUtc })
        .where('door_id', '=', door.id)
        .where('attendee_id', '=', attendee.id)
        .execute();
      await leave(ctx, door);
    }
    return { result: 'out', admitted: false };
  }

  const refusal = await refusalFor(ctx, door, attendee);
  if (refusal) return { result: refusal, admitted: false };
  if (presence?.inside === 1) return { result: 'again', admitted: true };
  if (presence && door.reentry === 0) return { result: 'noReentry', admitted: false };
  if (!(await enter(ctx, door))) return { result: 'full', admitted: false };
  if (presence) {
    await ctx.db
      .updateTable('door_presence')
      .set({ inside: 1, last_scan_utc: scan.scannedUtc })
      .where('door_id', '=', door.id)
      .where('attendee_id', '=', attendee.id)
      .execute();
    return { result: 'again', admitted: true };
  }
  const inserted = await ctx.db
    .insertInto('door_presence')
    .values({
      door_id: door.id,
      attendee_id: attendee.id,
      inside: 1,
      first_in_utc: scan.scannedUtc,
      last_scan_utc: scan.scannedUtc,
    })
    .onConflict((oc) => oc.columns(['door_id', 'attendee_id']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) {
    // Another scanner welcomed this person a moment ago: this scan is a repeat.
    await leave(ctx, door);
    return { result: 'again', admitted: true };
  }
  return { result: 'welcome', admitted: true };
}

/** Applies one scan; ctx.db must be the request's transaction. */
export async function applyScan(
  ctx: Ctx,
  event: EventRow,
  door: DoorRow,
  attendee: AttendeeJoinedRow,
  scan: Scan,
): Promise<ScanOutcome> {
  const { result, admitted } = await decide(ctx, door, attendee, scan);
  const now = ctx.clock.now().toISOString();
  const row = {
    workspace_id: ctx.actor.workspaceId,
    event_id: event.id,
    attendee_id: attendee.id,
    door_id: door.id,
    direction: scan.direction,
    result,
    admitted: toFlag(admitted),
    scanned_utc: scan.scannedUtc,
    offline: toFlag(scan.offline),
    recorded_utc: now,
  };
  const { id } = await ctx.db.insertInto('check_ins').values(row).returning('id').executeTakeFirstOrThrow();

  let current = attendee;
  // firstCheckInUtc is the earliest admission at the main entrance (an offline scan uploaded
  // later may be earlier than one already recorded).
  if (
    admitted &&
    door.main === 1 &&
    (attendee.checked_in_utc === null || scan.scannedUtc < attendee.checked_in_utc)
  ) {
    current = {
      ...attendee,
      checked_in_utc: scan.scannedUtc,
      updated_utc: now,
      change_seq: await nextChangeSeq(ctx.db),
    };
    await ctx.db
      .updateTable('attendees')
      .set({ checked_in_utc: current.checked_in_utc, updated_utc: now, change_seq: current.change_seq })
      .where('id', '=', attendee.id)
      .execute();
  }
  if (result === 'welcome' || result === 'again' || result === 'out') {
    await emit(ctx, {
      type: 'checkin.created',
      eventId: event.id,
      data: {
        event: eventRef(event),
        checkIn: checkInView({ ...row, id }, door),
        attendee: attendeeView('unredacted', current),
      },
    });
  }
  return { checkInId: id, result, admitted, attendee: current };
}
