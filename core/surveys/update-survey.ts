import * as v from 'valibot';
import { nextChangeSeq } from '../../db/sequence';
import { FieldErrors } from '../platform/field-errors';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { refuseOrphanedAnswers } from './answered-questions';
import { loadSurvey, surveyView } from './load-survey';
import { checkSurveyFields, checkWindow, questionsToKeep, surveyFields, utcOrNull } from './survey-input';
import { questionsOf } from './survey-questions';
import { surveySchema } from './survey-view';

export const updateSurvey = defineOperation({
  name: 'updateSurvey',
  title: 'Change a survey',
  description:
    "Changes a survey's title, questions or window (closesUtc now closes it, null reopens it). A question people answered keeps its id, kind and chosen options. Needs surveys:write.",
  scope: 'surveys:write',
  effect: 'write',
  extension: true,
  module: 'feedback',
  repeatable: true,
  etag: true,
  ifMatch: {
    hold: heldRow('surveys', (input) => input.surveyId),
    async current(ctx, input) {
      const event = await loadEvent(ctx, input.eventId);
      return surveyView(ctx, event, await loadSurvey(ctx, event, input.surveyId));
    },
  },
  activity: { resourceType: 'survey', resourceId: (_input, survey) => survey.surveyId },
  problems: ['notFound', 'questionAnswered'],
  input: v.object({
    eventId: uuid('The event id.'),
    surveyId: uuid('The survey id.'),
    title: v.optional(surveyFields.title),
    questions: v.optional(surveyFields.questions),
    opensUtc: surveyFields.opensUtc,
    closesUtc: surveyFields.closesUtc,
  }),
  rules: checkSurveyFields,
  output: surveySchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const current = await loadSurvey(ctx, event, input.surveyId);
    const opens = input.opensUtc === undefined ? current.opens_utc : utcOrNull(input.opensUtc);
    const closes = input.closesUtc === undefined ? current.closes_utc : utcOrNull(input.closesUtc);
    const errors = new FieldErrors();
    checkWindow(opens, closes, errors);
    errors.throwIfAny();
    const questions = input.questions ? questionsToKeep(input.questions) : undefined;
    // The row is held since it was read: on PostgreSQL an answer arriving meanwhile waits (an answer
    // writes the row too), so the answers checked below are all there are.
    await updateEventRow(ctx, 'surveys', current.id, 'survey', {
      title: input.title ? JSON.stringify(input.title) : current.title,
      questions: questions ? JSON.stringify(questions) : current.questions,
      opens_utc: opens,
      closes_utc: closes,
      updated_utc: ctx.clock.now().toISOString(),
      change_seq: await nextChangeSeq(ctx.db),
    });
    if (questions) await refuseOrphanedAnswers(ctx, current.id, questionsOf(current.questions), questions);
    return surveyView(ctx, event, await loadSurvey(ctx, event, current.id));
  },
});
