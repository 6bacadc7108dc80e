// The public Event resource, built from its row in one place.
import * as v from 'valibot';
import type { EventRow } from '../../db/schema';
import { type EventModule, eventModules, eventStatuses, paymentMethodsOffered } from '../../db/values';
import type { Ctx } from '../platform/context';
import { modulesOf } from '../platform/pipeline/load-event';
import { dateTime, localTime, text, uuid } from '../platform/schemas';
import { toLocal } from '../platform/time';

export { type EventModule, eventModules } from '../../db/values';

export const venueSchema = v.object({
  name: text('Name of the venue.'),
  address: v.nullable(text('Street address.')),
  city: v.nullable(text('City.')),
  country: v.nullable(v.pipe(v.string(), v.length(2), v.description('ISO 3166-1 alpha-2 country code.'))),
});

export const modulesSchema = v.pipe(
  v.object(
    Object.fromEntries(eventModules.map((m) => [m, v.boolean()])) as Record<
      EventModule,
      v.BooleanSchema<undefined>
    >,
  ),
  v.description(
    'Modules on (true) or switched off (false) for this event. Calls to a switched-off module answer 409 moduleOff.',
  ),
);

/** How messages name the event they are about. */
export const eventRefSchema = v.object({
  eventId: uuid('The event id.'),
  slug: text("The event's address: /e/{slug}."),
  name: text('Name of the event.'),
});

/** The event a message is about, as every message about an event names it. */
export type EventRefSource = Pick<EventRow, 'id' | 'slug' | 'name'>;

export function eventRef(event: EventRefSource): v.InferOutput<typeof eventRefSchema> {
  return { eventId: event.id, slug: event.slug, name: event.name };
}

export const eventSchema = v.object({
  eventId: uuid('The event id.'),
  name: text('Name of the event.'),
  slug: text("The event's address: /e/{slug}."),
  status: v.pipe(v.picklist(eventStatuses), v.description('draft (not visible to the public) or published.')),
  online: v.pipe(v.boolean(), v.description('True for an online event, which has no venue and no doors.')),
  venue: v.nullable(venueSchema),
  timeZone: text('IANA time zone of the venue; Local fields are in it.'),
  startsUtc: dateTime('First moment of the event.'),
  endsUtc: dateTime('Last moment of the event.'),
  startsLocal: localTime('Start'),
  endsLocal: localTime('End'),
  languages: v.array(text('Language tag; the first is the default.')),
  currency: text('ISO 4217 currency of its prices.'),
  modules: modulesSchema,
  paymentMethods: v.pipe(
    v.picklist(paymentMethodsOffered),
    v.description(
      'Tessera extension: how buyers on the public page may pay for priced tickets: transfer (bank transfer, the default), card (through Stripe Checkout; needs the workspace connected to Stripe), or both.',
    ),
    v.metadata({ 'x-tessera-extension': true }),
  ),
  url: v.pipe(v.string(), v.url(), v.description('Public page of the event.')),
  createdUtc: dateTime('When it was created.'),
  updatedUtc: dateTime('Last change; pass the newest as updatedSince.'),
});

export type EventView = v.InferOutput<typeof eventSchema>;

export function eventView(ctx: Ctx, row: EventRow): EventView {
  return {
    eventId: row.id,
    name: row.name,
    slug: row.slug,
    status: row.status,
    online: row.online === 1,
    venue:
      row.venue_name === null
        ? null
        : {
            name: row.venue_name,
            address: row.venue_address,
            city: row.venue_city,
            country: row.venue_country,
          },
    timeZone: row.time_zone,
    startsUtc: row.starts_utc,
    endsUtc: row.ends_utc,
    startsLocal: toLocal(row.starts_utc, row.time_zone),
    endsLocal: toLocal(row.ends_utc, row.time_zone),
    languages: JSON.parse(row.languages) as string[],
    currency: row.currency,
    modules: modulesOf(row),
    paymentMethods: row.payment_methods,
    url: `${ctx.request.origin}/e/${row.slug}`,
    createdUtc: row.created_utc,
    updatedUtc: row.updated_utc,
  };
}
