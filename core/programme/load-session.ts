import type { EventRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';

export async function loadSession(ctx: Ctx, event: EventRow, sessionId: string) {
  const row = await ctx.db
    .selectFrom('sessions')
    .selectAll()
    .where('id', '=', sessionId)
    .where('event_id', '=', event.id)
    .executeTakeFirst();
  if (!row) throw problem('notFound', `No session ${sessionId} at this event.`);
  return row;
}
