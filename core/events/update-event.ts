import * as v from 'valibot';
import { nextChangeSeq } from '../../db/sequence';
import { FieldErrors, textOf } from '../platform/field-errors';
import { loadEvent, loadEventForChange, modulesOf } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateWorkspaceRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { requireStripeForCard } from './card-offer';
import { checkZoneAndCurrency, eventFields, resolveTimes } from './event-input';
import { eventSchema, eventView } from './event-view';
import { slugTakenBy } from './slug-taken';
import { venueProblem, venueSent } from './venue-rule';

export const updateEvent = defineOperation({
  name: 'updateEvent',
  title: 'Change an event',
  description:
    "Changes an event's settings; send only what changes. To publish use set_event_status. Needs events:write.",
  scope: 'events:write',
  effect: 'write',
  changesEvent: true,
  repeatable: true,
  problems: ['slugTaken', 'stripeNotConnected'],
  etag: true,
  ifMatch: {
    hold: heldRow('events', (input) => input.eventId),
    current: async (ctx, input) => eventView(ctx, await loadEvent(ctx, input.eventId)),
  },
  activity: { resourceType: 'event', resourceId: (_input, event) => event.eventId },
  // The unique index decides, so two events cannot take one slug even at the same moment.
  unique: { 'events.slug': slugTakenBy },
  input: v.object({
    eventId: uuid('The event id.'),
    name: v.optional(eventFields.name),
    slug: v.optional(eventFields.slug),
    venue: v.optional(eventFields.venue),
    timeZone: v.optional(eventFields.timeZone),
    startsLocal: v.optional(eventFields.startsLocal),
    endsLocal: v.optional(eventFields.endsLocal),
    startsUtc: v.optional(eventFields.startsUtc),
    endsUtc: v.optional(eventFields.endsUtc),
    languages: v.optional(eventFields.languages),
    currency: v.optional(eventFields.currency),
    modules: v.optional(eventFields.modules),
    paymentMethods: v.optional(eventFields.paymentMethods),
  }),
  output: eventSchema,
  rules(input, errors) {
    checkZoneAndCurrency(errors, textOf(input.timeZone), textOf(input.currency));
  },
  async handler(ctx, input) {
    const current = await loadEventForChange(ctx, input.eventId);
    const errors = new FieldErrors();
    const zone = input.timeZone ?? current.time_zone;
    const times = resolveTimes(input, zone, { starts: current.starts_utc, ends: current.ends_utc }, errors);
    const venueRefused = venueProblem(current.online === 1, venueSent(input.venue, 'unsent'));
    if (venueRefused) errors.add('venue', venueRefused);
    errors.throwIfAny();
    if (input.paymentMethods !== undefined && input.paymentMethods !== current.payment_methods)
      await requireStripeForCard(ctx, input.paymentMethods);

    const venue = input.venue === undefined ? undefined : input.venue;
    const next = {
      ...current,
      name: input.name ?? current.name,
      slug: input.slug ?? current.slug,
      venue_name: venue === undefined ? current.venue_name : (venue?.name ?? null),
      venue_address: venue === undefined ? current.venue_address : (venue?.address ?? null),
      venue_city: venue === undefined ? current.venue_city : (venue?.city ?? null),
      venue_country: venue === undefined ? current.venue_country : (venue?.country ?? null),
      time_zone: zone,
      starts_utc: times.starts!,
      ends_utc: times.ends!,
      languages: input.languages ? JSON.stringify(input.languages) : current.languages,
      currency: input.currency ?? current.currency,
      modules: input.modules ? JSON.stringify({ ...modulesOf(current), ...input.modules }) : current.modules,
      payment_methods: input.paymentMethods ?? current.payment_methods,
      updated_utc: ctx.clock.now().toISOString(),
      change_seq: await nextChangeSeq(ctx.db),
    };
    await updateWorkspaceRow(ctx, 'events', current.id, 'event', next, { code: 'eventNotFound' });
    return eventView(ctx, next);
  },
});
