import * as v from 'valibot';
import { nextChangeSeq } from '../../db/sequence';
import { answerLineFaults, checkAnswer, loadQuestions } from '../events';
import { FieldErrors } from '../platform/field-errors';
import { ownRecord } from '../platform/own-record';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation, unchanged } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { problem } from '../platform/problems';
import { oneLine, uuid } from '../platform/schemas';
import { attendeeUpdated, emitForAttendees } from './attendee-messages';
import { attendeeSchema, attendeeView } from './attendee-view';
import { loadAttendee } from './load-attendee';

const name = () => v.optional(v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(100)));
const optional = () =>
  v.optional(v.nullable(v.pipe(v.string(), oneLine, v.maxLength(200), v.description('Null clears it.'))));

export const updateAttendee = defineOperation({
  name: 'updateAttendee',
  title: 'Correct attendee details',
  description:
    "Corrects an attendee's name, company, job title or answers; send only what changes. The email cannot be changed. Needs attendees:write.",
  scope: 'attendees:write',
  effect: 'write',
  activity: { resourceType: 'attendee', resourceId: (_input, attendee) => attendee.attendeeId },
  repeatable: true,
  extension: true,
  problems: ['attendeeNotFound'],
  etag: true,
  ifMatch: {
    hold: heldRow('attendees', (input) => input.attendeeId),
    current: async (ctx, input) =>
      attendeeView(ctx.actor, await loadAttendee(ctx, input.eventId, input.attendeeId), ctx.request.origin),
  },
  input: v.object({
    eventId: uuid('The event id.'),
    attendeeId: uuid('The attendee id.'),
    firstName: name(),
    lastName: name(),
    company: optional(),
    jobTitle: optional(),
    answers: v.optional(
      v.pipe(
        ownRecord(v.pipe(v.string(), oneLine), v.unknown()),
        v.description('Merged by question id; null removes one.'),
      ),
    ),
  }),
  output: attendeeSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held for the change by invoke (ifMatch.hold): an erasure of the person meanwhile is waited for,
    // so this sees the row erased instead of writing their data back.
    const current = await loadAttendee(ctx, event.id, input.attendeeId);
    if (current.erased === 1)
      throw problem('invalidRequest', 'This person erased their data; it cannot be set again.', {
        errors: [],
      });

    const errors = new FieldErrors();
    let answers = current.answers === null ? {} : (JSON.parse(current.answers) as Record<string, unknown>);
    if (input.answers) {
      const questions = new Map((await loadQuestions(ctx, event.id)).map((q) => [q.questionId, q]));
      answerLineFaults(questions, input.answers, 'answers.', errors);
      for (const [questionId, answer] of Object.entries(input.answers)) {
        const question = questions.get(questionId);
        if (!question) errors.add(`answers.${questionId}`, 'Not a question of this event.');
        else if (answer !== null) {
          const code = checkAnswer(question, answer);
          if (code) errors.add(`answers.${questionId}`, `The answer is refused (${code}).`);
        }
      }
      answers = Object.fromEntries(
        Object.entries({ ...answers, ...input.answers }).filter(([, a]) => a !== null),
      );
    }
    errors.throwIfAny();

    const next = {
      first_name: input.firstName ?? current.first_name,
      last_name: input.lastName ?? current.last_name,
      company: input.company === undefined ? current.company : input.company,
      job_title: input.jobTitle === undefined ? current.job_title : input.jobTitle,
      answers: Object.keys(answers).length > 0 ? JSON.stringify(answers) : null,
    };
    const changed = (Object.keys(next) as (keyof typeof next)[]).some((k) => next[k] !== current[k]);
    if (changed) {
      await ctx.db
        .updateTable('attendees')
        .set({ ...next, updated_utc: ctx.clock.now().toISOString(), change_seq: await nextChangeSeq(ctx.db) })
        .where('id', '=', current.id)
        .execute();
      await emitForAttendees(ctx, attendeeUpdated, event, [current.id]);
    }
    const view = attendeeView(ctx.actor, await loadAttendee(ctx, event.id, current.id), ctx.request.origin);
    return changed ? view : unchanged(view);
  },
});
