// The steward's scanner rules, shared by the live check-in and the offline upload:
// welcome the first time, again after that, out for a scan going out; refusals cancelled,
// unpaid, notOnList, noAddOn, full and noReentry. The door's inside count changes only in one
// conditional update with its capacity check, and a person's presence at a door is one row, so
// concurrent scans can neither welcome twice nor overfill a door. The door's own rules (which
// tickets it admits, re-entry) are door-rules.js's, the file the scanner page decides offline with.

import type { Insertable } from 'kysely';
import { sql } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { prepare } from '../../db/prepared';
import type { CheckInsTable, DoorRow, EventRow } from '../../db/schema';
import { nextChangeSeq } from '../../db/sequence';
import { toFlag } from '../../db/values';
import type { AttendeeJoinedRow } from '../attendees';
import type { Ctx } from '../platform/context';
import { isValidTicket } from '../sales';
import { checkInCreated } from './check-in-messages';
import type { ScanResult } from './check-in-view';
import { entryAtDoor, refusalAtDoor } from './door-rules';
import { scanInOneStatement } from './scan-in-one-statement';
import type { RecordedScan, Refusal, Scan, ScanToRecord } from './scan-record';

export interface ScanOutcome {
  checkInId: number;
  result: ScanResult;
  admitted: boolean;
  /** The attendee as it is after the scan. */
  attendee: AttendeeJoinedRow;
}

/** The refusal a scan going in meets whoever is inside: door-rules.js's, read against the stored rows. */
async function refusalFor(ctx: Ctx, door: DoorRow, attendee: AttendeeJoinedRow): Promise<Refusal | null> {
  const addOnIds = JSON.parse(door.add_on_ids) as string[];
  // Of the add-ons the ticket holds, the door's are all its rule reads: read only where it needs some.
  const held =
    addOnIds.length === 0
      ? []
      : (
          await ctx.db
            .selectFrom('attendee_add_ons')
            .select('add_on_id')
            .where('attendee_id', '=', attendee.id)
            .where('add_on_id', 'in', addOnIds)
            .execute()
        ).map((row) => row.add_on_id);
  return refusalAtDoor(
    { ticketTypeIds: JSON.parse(door.ticket_type_ids) as string[], addOnIds },
    {
      status: attendee.status,
      valid: isValidTicket(attendee.status, attendee.order_status),
      ticketTypeId: attendee.ticket_type_id,
      addOnIds: held,
    },
  );
}

// The statements of a scan on SQLite, built and compiled once (db/prepared.ts). PostgreSQL runs
// the same rules in one statement: the function tessera_scan_v2 (db/migrations/0036), called by
// scan-in-one-statement.ts. A change to a rule here is made there too (a new function).
type Presence = { doorId: string; attendeeId: string };
const presenceOf = prepare<Presence, { inside: number }>((db, p) =>
  db
    .selectFrom('door_presence')
    .select('inside')
    .where('door_id', '=', p.doorId)
    .where('attendee_id', '=', p.attendeeId),
);
/** Turns presence in or out; changes nothing when a concurrent scan (another process) already did. */
const setPresence = prepare<Presence & { inside: 0 | 1; scannedUtc: string }>((db, p) =>
  db
    .updateTable('door_presence')
    .set({ inside: p.inside, last_scan_utc: p.scannedUtc })
    .where('door_id', '=', p.doorId)
    .where('attendee_id', '=', p.attendeeId)
    .where('inside', '<>', p.inside),
);
const firstPresence = prepare<Presence & { scannedUtc: string }>((db, p) =>
  db
    .insertInto('door_presence')
    .values({
      door_id: p.doorId,
      attendee_id: p.attendeeId,
      inside: 1,
      first_in_utc: p.scannedUtc,
      last_scan_utc: p.scannedUtc,
    })
    .onConflict((oc) => oc.columns(['door_id', 'attendee_id']).doNothing()),
);
const enterDoor = prepare<{ doorId: string }>((db, p) =>
  db
    .updateTable('doors')
    .set({ inside: sql`inside + 1` })
    .where('id', '=', p.doorId)
    .where((eb) => eb.or([eb('capacity', 'is', null), eb('inside', '<', eb.ref('capacity'))])),
);
const leaveDoor = prepare<{ doorId: string }>((db, p) =>
  db.updateTable('doors').set({ inside: sql`inside - 1` }).where('id', '=', p.doorId).where('inside', '>', 0),
);
const recordScan = prepare<Insertable<CheckInsTable>, { id: number }>((db, p) =>
  db
    .insertInto('check_ins')
    .values({
      workspace_id: p.workspace_id,
      event_id: p.event_id,
      attendee_id: p.attendee_id,
      door_id: p.door_id,
      direction: p.direction,
      result: p.result,
      admitted: p.admitted,
      scanned_utc: p.scanned_utc,
      offline: p.offline,
      recorded_utc: p.recorded_utc,
    })
    .returning('id'),
);
const firstCheckIn = prepare<{ attendeeId: string; checkedInUtc: string; now: string; changeSeq: number }>(
  (db, p) =>
    db
      .updateTable('attendees')
      .set({ checked_in_utc: p.checkedInUtc, updated_utc: p.now, change_seq: p.changeSeq })
      .where('id', '=', p.attendeeId),
);

/** Takes a place inside the door; false when it is full. */
async function enter(ctx: Ctx, door: DoorRow): Promise<boolean> {
  return (await enterDoor.changed(ctx.db, { doorId: door.id })) === 1;
}

/**
 * Gives the place inside back. A door already at zero inside means its count and the presence
 * rows disagree: it stays at zero (the schema refuses a negative count) and that is logged.
 */
async function leave(ctx: Ctx, door: DoorRow): Promise<void> {
  if ((await leaveDoor.changed(ctx.db, { doorId: door.id })) === 0) warnDoorDisagrees(ctx, door);
}

function warnDoorDisagrees(ctx: Ctx, door: DoorRow): void {
  ctx.services.log.warn(
    { doorId: door.id, workspaceId: ctx.actor.workspaceId },
    'someone left a door with nobody inside: its inside count and the presence rows disagree',
  );
}

async function decide(
  ctx: Ctx,
  door: DoorRow,
  attendee: AttendeeJoinedRow,
  scan: Scan,
  refusal: Refusal | null,
): Promise<{ result: ScanResult; admitted: boolean }> {
  const at = { doorId: door.id, attendeeId: attendee.id };
  const presence = await presenceOf.first(ctx.db, at);

  if (scan.direction === 'out') {
    if (
      presence?.inside === 1 &&
      (await setPresence.changed(ctx.db, { ...at, inside: 0, scannedUtc: scan.scannedUtc })) === 1
    )
      await leave(ctx, door);
    return { result: 'out', admitted: false };
  }

  if (refusal) return { result: refusal, admitted: false };
  const entry = entryAtDoor(
    { reentry: door.reentry === 1 },
    presence === undefined ? 'never' : presence.inside === 1 ? 'inside' : 'out',
  );
  if (entry === 'again') return { result: 'again', admitted: true };
  if (entry === 'noReentry') return { result: 'noReentry', admitted: false };
  if (!(await enter(ctx, door))) return { result: 'full', admitted: false };
  if (entry === 'backIn') {
    // Back in; a scan at the same moment elsewhere that already let them in keeps the one place.
    if ((await setPresence.changed(ctx.db, { ...at, inside: 1, scannedUtc: scan.scannedUtc })) === 0)
      await leave(ctx, door);
    return { result: 'again', admitted: true };
  }
  if ((await firstPresence.changed(ctx.db, { ...at, scannedUtc: scan.scannedUtc })) === 0) {
    // Another scanner welcomed this person a moment ago: this scan is a repeat.
    await leave(ctx, door);
    return { result: 'again', admitted: true };
  }
  return { result: 'welcome', admitted: true };
}

/** The check-in row a scan records, as stored and as its message tells it. */
function checkInValues(ctx: Ctx, scan: ScanToRecord, result: ScanResult, admitted: boolean) {
  return {
    workspace_id: ctx.actor.workspaceId,
    event_id: scan.event.id,
    attendee_id: scan.attendee.id,
    door_id: scan.door.id,
    direction: scan.direction,
    result,
    admitted: toFlag(admitted),
    scanned_utc: scan.scannedUtc,
    offline: toFlag(scan.offline),
    recorded_utc: scan.recordedUtc,
  };
}

/**
 * The scan as statements one after another (SQLite, where a statement is a call in this process).
 * Exported for the parity test with tessera_scan_v2 (test/postgres/scanner-parity.test.ts).
 */
export async function scanStepByStep(ctx: Ctx, scan: ScanToRecord): Promise<RecordedScan> {
  const { door, attendee } = scan;
  const { result, admitted } = await decide(ctx, door, attendee, scan, scan.refusal);
  const recorded = await recordScan.first(ctx.db, checkInValues(ctx, scan, result, admitted));
  if (!recorded) throw new Error('the scan was not recorded');
  let changeSeq: number | null = null;
  if (admitted && scan.firstEntry) {
    changeSeq = await nextChangeSeq(ctx.db);
    await firstCheckIn.changed(ctx.db, {
      attendeeId: attendee.id,
      checkedInUtc: scan.scannedUtc,
      now: scan.recordedUtc,
      changeSeq,
    });
  }
  return { result, admitted, checkInId: recorded.id, changeSeq, doorDisagrees: false };
}

/**
 * The scan with what both stores' rules take from here: the refusals that need no lock (door-rules.js)
 * and whether an admission would be the first at the main entrance.
 */
export async function scanToRecord(
  ctx: Ctx,
  event: EventRow,
  door: DoorRow,
  attendee: AttendeeJoinedRow,
  scan: Scan,
): Promise<ScanToRecord> {
  return {
    ...scan,
    event,
    door,
    attendee,
    recordedUtc: ctx.clock.now().toISOString(),
    refusal: scan.direction === 'in' ? await refusalFor(ctx, door, attendee) : null,
    // firstCheckInUtc is the earliest admission at the main entrance (an offline scan uploaded
    // later may be earlier than one already recorded).
    firstEntry:
      door.main === 1 && (attendee.checked_in_utc === null || scan.scannedUtc < attendee.checked_in_utc),
  };
}

/** Applies one scan; ctx.db must be the request's transaction. */
export async function applyScan(
  ctx: Ctx,
  event: EventRow,
  door: DoorRow,
  attendee: AttendeeJoinedRow,
  scan: Scan,
): Promise<ScanOutcome> {
  const toRecord = await scanToRecord(ctx, event, door, attendee, scan);
  const now = toRecord.recordedUtc;
  const { result, admitted, checkInId, changeSeq, doorDisagrees } = isPostgres(ctx.db)
    ? await scanInOneStatement(ctx, toRecord)
    : await scanStepByStep(ctx, toRecord);
  if (doorDisagrees) warnDoorDisagrees(ctx, door);

  const current =
    changeSeq === null
      ? attendee
      : { ...attendee, checked_in_utc: scan.scannedUtc, updated_utc: now, change_seq: changeSeq };
  if (result === 'welcome' || result === 'again' || result === 'out') {
    const checkIn = { id: checkInId, ...checkInValues(ctx, toRecord, result, admitted) };
    await checkInCreated.emit(ctx, { event, checkIn, door, attendee: current });
  }
  return { checkInId, result, admitted, attendee: current };
}
