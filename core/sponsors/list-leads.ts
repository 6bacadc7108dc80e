import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { leadItemPage, leadPagingFields, sharedLeadsPage } from './lead-page';

export const listLeads = defineOperation({
  name: 'listLeads',
  title: 'List leads',
  description:
    'Lists the leads sponsors captured from visitors who agreed to share, newest first. Needs sponsors:read and people:read.',
  scope: 'sponsors:read',
  effect: 'read',
  module: 'leads',
  aboutPeople: 'Leads are about people: listing them needs the people:read scope.',
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    ...leadPagingFields,
  }),
  output: leadItemPage,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    return sharedLeadsPage(ctx, input, { name: 'leads', eventId: event.id });
  },
});
