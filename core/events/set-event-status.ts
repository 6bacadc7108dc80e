import * as v from 'valibot';
import { nextChangeSeq } from '../../db/sequence';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation, unchanged } from '../platform/pipeline/operation';
import { updateWorkspaceRow } from '../platform/pipeline/update-row';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { freeRegistrationLimit, registrationsAboveFreeLimit } from '../sales';
import { eventSchema, eventView } from './event-view';

export const setEventStatus = defineOperation({
  name: 'setEventStatus',
  title: 'Publish or unpublish an event',
  description:
    'Publishes an event, opening its page and registration, or returns it to draft; for other changes use update_event. Needs events:write.',
  scope: 'events:write',
  effect: 'write',
  changesEvent: true,
  activity: {
    resourceType: 'event',
    resourceId: (_input, event) => event.eventId,
    summary: (input) => input.status,
  },
  repeatable: true,
  problems: ['historyNeedsLicence'],
  etag: true,
  input: v.object({
    eventId: uuid('The event id.'),
    status: v.pipe(v.picklist(['published', 'draft']), v.description('published or draft.')),
  }),
  output: eventSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    if (event.status === input.status) {
      return unchanged(await eventView(ctx, event));
    }
    if (input.status === 'published' && event.ends_utc < ctx.clock.now().toISOString()) {
      const registered = await registrationsAboveFreeLimit(ctx, event.id);
      if (registered !== null) {
        throw problem(
          'historyNeedsLicence',
          `This earlier edition has ${registered} registrations, above the free limit of ${freeRegistrationLimit}; reopening it needs its licence.`,
        );
      }
    }
    const next = {
      ...event,
      status: input.status,
      updated_utc: ctx.clock.now().toISOString(),
      change_seq: await nextChangeSeq(ctx.db),
    };
    await updateWorkspaceRow(
      ctx,
      'events',
      event.id,
      'event',
      { status: next.status, updated_utc: next.updated_utc, change_seq: next.change_seq },
      { code: 'eventNotFound' },
    );
    return eventView(ctx, next);
  },
});
