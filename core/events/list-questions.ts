import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { loadQuestions } from './load-questions';
import { answersJsonSchema, questionSchema } from './questions';

export const listQuestions = defineOperation({
  name: 'listQuestions',
  title: 'List registration questions',
  description:
    'Lists the questions an event asks at registration, in form order, with their options; answers are keyed by questionId. Needs events:read.',
  scope: 'events:read',
  effect: 'read',
  problems: [],
  input: v.object({ eventId: uuid('The event id.') }),
  output: v.object({ data: v.array(questionSchema) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    return { data: await loadQuestions(ctx, event.id) };
  },
});

export const getAnswersSchema = defineOperation({
  name: 'getAnswersSchema',
  title: 'Answers JSON Schema',
  description:
    "The JSON Schema of an attendee's answers at this event. Check answers with it before register_attendees or update_attendee. Needs events:read.",
  scope: 'events:read',
  effect: 'read',
  problems: [],
  input: v.object({ eventId: uuid('The event id.') }),
  output: v.pipe(v.record(v.string(), v.unknown()), v.description('A JSON Schema object.')),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    return answersJsonSchema(await loadQuestions(ctx, event.id));
  },
});
