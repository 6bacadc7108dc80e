import * as v from 'valibot';
import { nextChangeSeq } from '../../db/sequence';
import { FieldErrors } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { loadSurvey, surveyView } from './load-survey';
import { checkSurveyFields, checkWindow, questionsToKeep, surveyFields, utcOrNull } from './survey-input';
import { surveySchema } from './survey-view';

export const createSurvey = defineOperation({
  name: 'createSurvey',
  title: 'Create a survey',
  description:
    'Creates a survey: a title and questions by language (rating 1–5, scale 0–10 as NPS, choice, multipleChoice, yesNo, text) and the window it takes answers in. Needs surveys:write.',
  scope: 'surveys:write',
  effect: 'write',
  extension: true,
  module: 'feedback',
  idempotent: true,
  etag: true,
  activity: {
    resourceType: 'survey',
    resourceId: (_input, survey) => survey.surveyId,
    summary: (input) => Object.values(input.title)[0] ?? '',
  },
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), ...surveyFields }),
  rules: checkSurveyFields,
  output: surveySchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const opens = utcOrNull(input.opensUtc);
    const closes = utcOrNull(input.closesUtc);
    const errors = new FieldErrors();
    checkWindow(opens, closes, errors);
    errors.throwIfAny();
    const now = ctx.clock.now().toISOString();
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      title: JSON.stringify(input.title),
      questions: JSON.stringify(questionsToKeep(input.questions)),
      opens_utc: opens,
      closes_utc: closes,
      created_utc: now,
      updated_utc: now,
      change_seq: await nextChangeSeq(ctx.db),
    };
    await ctx.db.insertInto('surveys').values(row).execute();
    return surveyView(ctx, event, await loadSurvey(ctx, event, row.id));
  },
});
