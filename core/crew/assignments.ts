// Who is on which shift, read from the assignment rows in one place: a shift's crewMemberIds (and so
// its assigned and open places) and a crew member's shiftIds both come from here, so the two lists
// always agree with each other and with the rows.
import type { Db } from '../../db/connect';

/** The crew on each shift, in the order they signed up. */
export async function crewOnShifts(db: Db, shiftIds: string[]): Promise<Map<string, string[]>> {
  const byShift = new Map<string, string[]>(shiftIds.map((id) => [id, []]));
  if (shiftIds.length === 0) return byShift;
  const rows = await db
    .selectFrom('shift_assignments')
    .select(['shift_id', 'crew_member_id'])
    .where('shift_id', 'in', shiftIds)
    .orderBy('created_utc')
    .orderBy('crew_member_id')
    .execute();
  for (const row of rows) byShift.get(row.shift_id)!.push(row.crew_member_id);
  return byShift;
}

/** The shifts each crew member is on, in time order. */
export async function shiftsOfCrew(db: Db, crewMemberIds: string[]): Promise<Map<string, string[]>> {
  const byMember = new Map<string, string[]>(crewMemberIds.map((id) => [id, []]));
  if (crewMemberIds.length === 0) return byMember;
  const rows = await db
    .selectFrom('shift_assignments')
    .innerJoin('shifts', 'shifts.id', 'shift_assignments.shift_id')
    .select(['shift_assignments.crew_member_id', 'shifts.id'])
    .where('shift_assignments.crew_member_id', 'in', crewMemberIds)
    .orderBy('shifts.starts_utc')
    .orderBy('shifts.id')
    .execute();
  for (const row of rows) byMember.get(row.crew_member_id)!.push(row.id);
  return byMember;
}
