import type { Ctx } from '../platform/context';
import { questionView } from './questions';

export async function loadQuestions(ctx: Ctx, eventId: string) {
  const rows = await ctx.db
    .selectFrom('questions')
    .selectAll()
    .where('event_id', '=', eventId)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
  return rows.map(questionView);
}
