// Every row that changes carries when it was made, when it last changed and its change position
// ("oldest change first" pages by it): stamped here, so no write forgets one.
import { nextChangeSeq } from '../../../db/sequence';
import type { Ctx } from '../context';

/** For a new row. */
export async function madeNow(
  ctx: Ctx,
): Promise<{ created_utc: string; updated_utc: string; change_seq: number }> {
  const now = ctx.clock.now().toISOString();
  return { created_utc: now, updated_utc: now, change_seq: await nextChangeSeq(ctx.db) };
}

/** For a row that changes. */
export async function changedNow(ctx: Ctx): Promise<{ updated_utc: string; change_seq: number }> {
  return { updated_utc: ctx.clock.now().toISOString(), change_seq: await nextChangeSeq(ctx.db) };
}
