import * as v from 'valibot';
import { nextChangeSeq } from '../../db/sequence';
import { FieldErrors } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { ownRecord } from '../platform/own-record';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { oneLine, uuid } from '../platform/schemas';
import { misfit } from './answer-fit';
import { feedbackGiven } from './feedback-messages';
import { feedbackSchema, feedbackView } from './feedback-view';
import { checkRespondent, respondentFields, respondentOf } from './respondent';
import { questionsOf } from './survey-questions';
import { refuseOutsideWindow } from './survey-window';

export const submitSurveyAnswer = defineOperation({
  name: 'submitSurveyAnswer',
  title: 'Answer a survey',
  description:
    "Records an attendee's answers to an open survey (surveyNotOpen otherwise), once each (alreadyAnswered), keyed by question id, each fitting its question. Never shown with who gave them; sends feedback.given. Needs surveys:write.",
  scope: 'surveys:write',
  effect: 'write',
  extension: true,
  module: 'feedback',
  idempotent: true,
  ticketCodes: true,
  // Who answered stays out of the log as everywhere else: the entry names the answer only.
  activity: { resourceType: 'feedback', resourceId: (_input, feedback) => feedback.feedbackId },
  problems: ['notFound', 'attendeeNotFound', 'surveyNotOpen', 'alreadyAnswered'],
  unique: { 'survey_responses.survey_id, survey_responses.attendee_id': 'alreadyAnswered' },
  input: v.object({
    eventId: uuid('The event id.'),
    surveyId: uuid('The survey id.'),
    ...respondentFields,
    answers: v.pipe(
      ownRecord(v.pipe(v.string(), oneLine), v.unknown()),
      v.description(
        'Answers keyed by question id: rating 1–5, scale 0–10, choice an option value, multipleChoice a list of option values, yesNo true or false, text up to 5000 characters. Questions left out are unanswered; at least one answer.',
      ),
    ),
  }),
  rules: checkRespondent,
  output: feedbackSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const attendeeId = await respondentOf(ctx, event, input);
    const now = ctx.clock.now();
    // Writing the survey first holds it (on PostgreSQL) against a change of its questions while
    // this answer is checked against them; its answer count changes with it, for updatedSince.
    const survey = await ctx.db
      .updateTable('surveys')
      .set({ updated_utc: now.toISOString(), change_seq: await nextChangeSeq(ctx.db) })
      .where('id', '=', input.surveyId)
      .where('event_id', '=', event.id)
      .returningAll()
      .executeTakeFirst();
    if (!survey) throw problem('notFound', `No survey ${input.surveyId} at this event.`);
    refuseOutsideWindow(survey, now);

    const questions = new Map(questionsOf(survey.questions).map((q) => [q.id, q]));
    const errors = new FieldErrors();
    const given = Object.entries(input.answers);
    if (given.length === 0) errors.add('answers', 'Answer at least one question.');
    for (const [id, answer] of given) {
      const question = questions.get(id);
      const why = question ? misfit(question, answer) : 'No question of this survey has this id.';
      if (why) errors.add(`answers.${id}`, why);
    }
    errors.throwIfAny();

    const answer = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      survey_id: survey.id,
      answers: JSON.stringify(input.answers),
      submitted_utc: now.toISOString(),
      attendee_id: attendeeId,
    };
    await ctx.db.insertInto('survey_responses').values(answer).execute();
    await feedbackGiven.emit(ctx, { event, answer });
    return feedbackView({ answer });
  },
});
