// The organiser takes someone off a waiting list (they asked, or bought elsewhere). A place their
// offer held goes to the next in line at once.
import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { endEntry } from './end-entry';
import { waitingEntrySchema } from './entry-view';
import { entryAnswer, loadEntry } from './load-entry';

export const removeFromWaitingList = defineOperation({
  name: 'removeFromWaitingList',
  title: 'Remove from a waiting list',
  description:
    'Takes a person off a waiting list; a place their offer held goes to the next in line. An entry already ended is answered as it is. Needs attendees:write.',
  scope: 'attendees:write',
  effect: 'destructive',
  extension: true,
  repeatable: true,
  activity: { resourceType: 'waitingListEntry', resourceId: (input) => input.waitingListEntryId },
  problems: ['notFound'],
  input: v.object({ eventId: uuid('The event id.'), waitingListEntryId: uuid('The entry id.') }),
  output: waitingEntrySchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const entry = await loadEntry(ctx, event.id, input.waitingListEntryId, true);
    if (entry.status === 'waiting' || entry.status === 'offered') await endEntry(ctx, entry, 'removed');
    return entryAnswer(ctx, event.id, entry.id);
  },
});
