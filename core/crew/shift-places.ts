// Taking and giving back a place on a shift, the one place where assignment rows are written live.
// Limits hold under concurrent calls on both stores, without a stored count:
// - each change first touches the crew member's row, then the shift's (updatedSince sees both
//   change; on PostgreSQL the touch takes the row's lock, so a second sign-up for the same shift or
//   by the same person waits for the first to commit, and its next statement sees it). Lock order:
//   people before shifts, people in id order, a person's shifts in time order; a change or removal
//   of a shift locks the people on it first (lockCrewThenShift), so it never meets a drop in a circle;
// - the sign-up is then one conditional insert: a place is left on the shift and the person holds
//   no shift at an overlapping time (this one included), so on SQLite, where each statement stands
//   alone, the statement itself keeps the rules.
// Every move sends its message (shift.signed_up or shift.dropped) in the same transaction.
import { sql } from 'kysely';
import { runAgain } from '../../db/errors';
import type { EventRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { lockForChange } from '../platform/pipeline/load-event-row';
import { problem } from '../platform/problems';
import { changedNow } from '../platform/storage/change-stamp';
import { crewOnShifts, shiftsOfCrew } from './assignments';
import { crewMemberQuery, type ShiftJoinedRow, shiftQuery } from './crew-rows';
import { crewMemberNotFound, shiftNotFound } from './load-crew';
import { shiftDropped, shiftSignedUp } from './shift-messages';

/**
 * Marks a crew member changed (and, on PostgreSQL, holds their row until the transaction ends).
 * Removed since the call read them: 404 notFound, as if the call had come after.
 */
export async function touchCrewMember(ctx: Ctx, crewMemberId: string): Promise<void> {
  const { numUpdatedRows } = await ctx.db
    .updateTable('crew_members')
    .set(await changedNow(ctx))
    .where('id', '=', crewMemberId)
    .executeTakeFirst();
  if (Number(numUpdatedRows) === 0) throw crewMemberNotFound(crewMemberId);
}

/** Marks a shift changed (and holds its row); removed since the call read it: 404 notFound. */
export async function touchShift(ctx: Ctx, shiftId: string): Promise<void> {
  const { numUpdatedRows } = await ctx.db
    .updateTable('shifts')
    .set(await changedNow(ctx))
    .where('id', '=', shiftId)
    .executeTakeFirst();
  if (Number(numUpdatedRows) === 0) throw shiftNotFound(shiftId);
}

/**
 * Locks the people on a shift (in id order), then the shift, and answers who is on it, in the order
 * they signed up: a shift's change or removal touches each of them, and a person's row comes before
 * a shift's, as a sign-up or a drop takes them. Someone who signed up between the first read and the
 * shift's lock was not locked first: the transaction runs again (the write queue's retry), and finds
 * them on it. One writer (SQLite) never sees that.
 */
export async function lockCrewThenShift(ctx: Ctx, eventId: string, shiftId: string): Promise<string[]> {
  const before = (await crewOnShifts(ctx.db, [shiftId])).get(shiftId)!;
  for (const id of [...before].sort()) await lockForChange(ctx, 'crew_members', eventId, id);
  await lockForChange(ctx, 'shifts', eventId, shiftId);
  const now = (await crewOnShifts(ctx.db, [shiftId])).get(shiftId)!;
  if (now.some((id) => !before.includes(id)))
    throw runAgain(`someone signed up for shift ${shiftId} before it was locked`);
  return now;
}

/** The first other shift of the crew member's that overlaps the time (touching ends do not clash). */
export async function clashingShift(
  ctx: Ctx,
  crewMemberId: string,
  time: { starts: string; ends: string; exceptShiftId: string },
): Promise<{ id: string; role: string; starts_utc: string } | undefined> {
  return ctx.db
    .selectFrom('shift_assignments')
    .innerJoin('shifts', 'shifts.id', 'shift_assignments.shift_id')
    .select(['shifts.id', 'shifts.role', 'shifts.starts_utc'])
    .where('shift_assignments.crew_member_id', '=', crewMemberId)
    .where('shifts.id', '!=', time.exceptShiftId)
    .where('shifts.starts_utc', '<', time.ends)
    .where('shifts.ends_utc', '>', time.starts)
    .orderBy('shifts.starts_utc')
    .orderBy('shifts.id')
    .executeTakeFirst();
}

export function refuseClash(clash: { id: string; role: string; starts_utc: string }, who: string): never {
  throw problem(
    'shiftClash',
    `${who} already on the ${clash.role} shift ${clash.id} at that time; one person holds one shift at a time.`,
    { shiftId: clash.id },
  );
}

/**
 * Puts a crew member on a shift: 'signedUp' (shift.signed_up sent) or 'already' when they were on
 * it. A full shift answers 409 shiftFull, a shift of theirs at the same time 409 shiftClash.
 */
export async function signUp(
  ctx: Ctx,
  event: EventRow,
  shift: ShiftJoinedRow,
  crewMemberId: string,
): Promise<'signedUp' | 'already'> {
  if (await isOnShift(ctx, shift.id, crewMemberId)) return 'already';
  await touchCrewMember(ctx, crewMemberId);
  await touchShift(ctx, shift.id);
  const now = ctx.clock.now().toISOString();
  const result = await ctx.db
    .insertInto('shift_assignments')
    .columns(['shift_id', 'crew_member_id', 'created_utc'])
    .expression((eb) =>
      eb
        .selectFrom('shifts')
        .select([
          'shifts.id',
          sql<string>`${crewMemberId}`.as('crew_member_id'),
          sql<string>`${now}`.as('created_utc'),
        ])
        .where('shifts.id', '=', shift.id)
        .where((w) =>
          w(
            w
              .selectFrom('shift_assignments')
              .select((c) => c.fn.countAll<number>().as('n'))
              .where('shift_assignments.shift_id', '=', shift.id),
            '<',
            w.ref('shifts.needed'),
          ),
        )
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom('shift_assignments as held')
                .innerJoin('shifts as other', 'other.id', 'held.shift_id')
                .select('held.shift_id')
                .where('held.crew_member_id', '=', crewMemberId)
                .whereRef('other.starts_utc', '<', 'shifts.ends_utc')
                .whereRef('other.ends_utc', '>', 'shifts.starts_utc'),
            ),
          ),
        ),
    )
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) {
    if (await isOnShift(ctx, shift.id, crewMemberId)) return 'already';
    const clash = await clashingShift(ctx, crewMemberId, {
      starts: shift.starts_utc,
      ends: shift.ends_utc,
      exceptShiftId: shift.id,
    });
    if (clash) refuseClash(clash, `Crew member ${crewMemberId} is`);
    throw problem(
      'shiftFull',
      `The ${shift.role} shift ${shift.id} has the ${shift.needed} people it needs; choose another shift.`,
      { shiftId: shift.id },
    );
  }
  await sendMove(ctx, event, shiftSignedUp, shift.id, crewMemberId);
  return 'signedUp';
}

/** Takes a crew member off a shift, sending shift.dropped; false when they were not on it. */
export async function dropFromShift(
  ctx: Ctx,
  event: EventRow,
  shiftId: string,
  crewMemberId: string,
): Promise<boolean> {
  if (!(await isOnShift(ctx, shiftId, crewMemberId))) return false;
  await touchCrewMember(ctx, crewMemberId);
  await touchShift(ctx, shiftId);
  const result = await ctx.db
    .deleteFrom('shift_assignments')
    .where('shift_id', '=', shiftId)
    .where('crew_member_id', '=', crewMemberId)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) return false;
  await sendMove(ctx, event, shiftDropped, shiftId, crewMemberId);
  return true;
}

async function isOnShift(ctx: Ctx, shiftId: string, crewMemberId: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('shift_assignments')
    .select('shift_id')
    .where('shift_id', '=', shiftId)
    .where('crew_member_id', '=', crewMemberId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The move's message, with the shift and the crew member as they are after it. */
async function sendMove(
  ctx: Ctx,
  event: EventRow,
  emitter: typeof shiftSignedUp | typeof shiftDropped,
  shiftId: string,
  crewMemberId: string,
): Promise<void> {
  const shift = await shiftQuery(ctx.db).where('shifts.id', '=', shiftId).executeTakeFirstOrThrow();
  const crewMember = await crewMemberQuery(ctx.db)
    .where('crew_members.id', '=', crewMemberId)
    .executeTakeFirstOrThrow();
  await emitter.emit(ctx, {
    event,
    shift,
    shiftCrewIds: (await crewOnShifts(ctx.db, [shiftId])).get(shiftId)!,
    crewMember,
    memberShiftIds: (await shiftsOfCrew(ctx.db, [crewMemberId])).get(crewMemberId)!,
  });
}
