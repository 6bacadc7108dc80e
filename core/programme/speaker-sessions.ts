// Which sessions each speaker speaks at, and touching speakers whose sessions changed (so a
// client syncing speakers with updatedSince sees the new sessionIds).
import { sql } from 'kysely';
import { jsonArrayValues } from '../../db/dialect';
import { nextChangeSeq } from '../../db/sequence';
import type { Ctx } from '../platform/context';

/** Speaker id -> ids of the event's sessions naming them, earliest session first. */
export async function sessionIdsBySpeaker(
  ctx: Ctx,
  eventId: string,
  speakerIds: string[],
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>(speakerIds.map((id) => [id, []]));
  if (speakerIds.length === 0) return found;
  const rows = await sql<{ speaker_id: string; session_id: string }>`
    select j.value as speaker_id, s.id as session_id
    from sessions s, ${jsonArrayValues(ctx.db, 's.speaker_ids', 'j')}
    where s.event_id = ${eventId} and j.value in (${sql.join(speakerIds)})
    order by s.starts_utc, s.id`.execute(ctx.db);
  for (const row of rows.rows) found.get(row.speaker_id)?.push(row.session_id);
  return found;
}

/**
 * Marks the given speakers as changed now, in id order (on PostgreSQL each touch holds the row): two
 * sessions listing the same speakers in other orders would otherwise take them crosswise.
 */
export async function touchSpeakers(ctx: Ctx, eventId: string, speakerIds: Iterable<string>): Promise<void> {
  const now = ctx.clock.now().toISOString();
  for (const id of [...new Set(speakerIds)].sort()) {
    await ctx.db
      .updateTable('speakers')
      .set({ updated_utc: now, change_seq: await nextChangeSeq(ctx.db) })
      .where('id', '=', id)
      .where('event_id', '=', eventId)
      .execute();
  }
}
