// The organiser offers a place to one entry now, ahead of the line (a speaker's colleague, someone
// who asked first by phone): a free place is taken for the offer, as for the next in line.
import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { waitingEntrySchema } from './entry-view';
import { entryAnswer, loadEntry } from './load-entry';
import { offerPlaceTo } from './offer-places';

export const offerWaitingPlace = defineOperation({
  name: 'offerWaitingPlace',
  title: 'Offer a place now',
  description:
    'Offers a free place to one waiting person now, ahead of the line: held for them, the link e-mailed. Refused soldOut when no place is free. Needs attendees:write.',
  scope: 'attendees:write',
  effect: 'write',
  extension: true,
  activity: { resourceType: 'waitingListEntry', resourceId: (input) => input.waitingListEntryId },
  problems: ['notFound', 'soldOut', 'statusNotAllowed', 'registrationRefused'],
  input: v.object({ eventId: uuid('The event id.'), waitingListEntryId: uuid('The entry id.') }),
  output: waitingEntrySchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const entry = await loadEntry(ctx, event.id, input.waitingListEntryId);
    if (entry.status !== 'waiting')
      throw problem(
        'statusNotAllowed',
        `Only a waiting entry is offered a place; this one is ${entry.status}.`,
        {
          currentStatus: entry.status,
        },
      );
    const offered = await offerPlaceTo(ctx, entry.ticket_type_id, entry.id);
    if (offered === 'closed')
      throw problem(
        'registrationRefused',
        'The ticket type takes no offers now (its list is off, it is retired, or the event is over).',
        {
          reason: 'waitingListOff',
          ticketTypeId: entry.ticket_type_id,
        },
      );
    if (offered === 'full')
      throw problem(
        'soldOut',
        'No place is free to offer: raise the capacity or wait for one to come free.',
        {
          ticketTypeId: entry.ticket_type_id,
        },
      );
    return entryAnswer(ctx, event.id, entry.id);
  },
});
