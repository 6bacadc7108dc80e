import * as v from 'valibot';
import { mailStates } from '../../db/values';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { emailSchema, emailView } from './email-view';

export const listEmails = defineOperation({
  name: 'listEmails',
  title: "List an event's e-mail",
  description:
    "Lists an event's e-mail to attendees and buyers, oldest change first, with how each sending went; filter by attendee or state. Recipients need people:read. Needs attendees:read.",
  scope: 'attendees:read',
  effect: 'read',
  extension: true,
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    attendeeId: v.optional(uuid('Only the e-mail about this ticket.')),
    state: v.optional(
      v.pipe(v.picklist(mailStates), v.description('Only queued, sending, sent, failed or cancelled ones.')),
    ),
    ...cursorFields,
  }),
  output: pageOf(emailSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, {
      list: 'emails',
      filters: { eventId: event.id, attendeeId: input.attendeeId, state: input.state },
    });
    let query = ctx.db.selectFrom('mail_messages').selectAll().where('event_id', '=', event.id);
    if (input.attendeeId) query = query.where('attendee_id', '=', input.attendeeId);
    if (input.state) query = query.where('state', '=', input.state);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('mail_messages')));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => emailView(ctx, row));
  },
});
