import { questionColumns } from '../../db/columns';
import type { Db } from '../../db/connect';
import type { Ctx } from '../platform/context';
import { questionView } from './questions';

/** The order an event's questions are shown and checked in. */
export const questionOrder = ['sort_order', 'id'] as const;

/** The select of an event's questions, in their order (columns named: registration keeps it prepared). */
export const questionsOf = (db: Db, eventId: string) =>
  db
    .selectFrom('questions')
    .select(questionColumns)
    .where('event_id', '=', eventId)
    .orderBy(questionOrder[0])
    .orderBy(questionOrder[1]);

export async function loadQuestions(ctx: Ctx, eventId: string) {
  return (await questionsOf(ctx.db, eventId).execute()).map(questionView);
}
