import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { emailSchema, emailView } from './email-view';

export const getEmail = defineOperation({
  name: 'getEmail',
  title: 'Get an e-mail',
  description:
    "Returns one e-mail of the event's log: what caused it, its subject and how its sending went (attempts, the last refusal, when it was sent). The recipient needs people:read. Needs attendees:read.",
  scope: 'attendees:read',
  effect: 'read',
  extension: true,
  problems: ['notFound'],
  input: v.object({ eventId: uuid('The event id.'), emailId: uuid('The e-mail id.') }),
  output: emailSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const row = await ctx.db
      .selectFrom('mail_messages')
      .selectAll()
      .where('id', '=', input.emailId)
      .where('event_id', '=', event.id)
      .executeTakeFirst();
    if (!row) throw problem('notFound', `No e-mail ${input.emailId} at this event.`);
    return emailView(ctx, row);
  },
});
