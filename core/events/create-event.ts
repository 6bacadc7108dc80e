import * as v from 'valibot';
import { violatedUnique } from '../../db/errors';
import type { NewEventRow } from '../../db/schema';
import { nextChangeSeq } from '../../db/sequence';
import { toFlag } from '../../db/values';
import type { Ctx } from '../platform/context';
import { textOf } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { defineOperation } from '../platform/pipeline/operation';
import { withSavepoint } from '../platform/storage/savepoint';
import { isTimeZone } from '../platform/time';
import {
  checkedTimes,
  checkZoneAndCurrency,
  eventFields,
  resolveTimes,
  slugFromName,
  timeInputOf,
} from './event-input';
import { eventSchema, eventView } from './event-view';
import { slugTaken, slugTakenBy } from './slug-taken';
import { venueProblem, venueSent } from './venue-rule';

export const createEvent = defineOperation({
  name: 'createEvent',
  title: 'Create a draft event',
  description:
    'Creates a draft event; publish it with set_event_status. An in-person event needs a venue, an online one has none. Needs events:write.',
  scope: 'events:write',
  effect: 'write',
  problems: ['slugTaken'],
  etag: true,
  idempotent: true,
  activity: {
    resourceType: 'event',
    resourceId: (_input, event) => event.eventId,
    summary: (input) => input.name,
  },
  unique: { 'events.slug': slugTakenBy },
  input: v.object({
    name: eventFields.name,
    slug: v.optional(eventFields.slug),
    online: v.optional(eventFields.online),
    venue: v.optional(eventFields.venue),
    timeZone: eventFields.timeZone,
    startsLocal: v.optional(eventFields.startsLocal),
    endsLocal: v.optional(eventFields.endsLocal),
    startsUtc: v.optional(eventFields.startsUtc),
    endsUtc: v.optional(eventFields.endsUtc),
    languages: v.optional(eventFields.languages),
    currency: eventFields.currency,
    modules: v.optional(eventFields.modules),
  }),
  output: eventSchema,
  rules(input, errors) {
    const zone = textOf(input.timeZone);
    checkZoneAndCurrency(errors, zone, textOf(input.currency));
    const venue = venueProblem(input.online === true, venueSent(input.venue, 'none'));
    if (venue) errors.add('venue', venue);
    resolveTimes(
      timeInputOf(input),
      zone && isTimeZone(zone) ? zone : null,
      { starts: null, ends: null },
      errors,
    );
  },
  async handler(ctx, input) {
    const online = input.online ?? false;
    const times = checkedTimes(input, input.timeZone, { starts: null, ends: null });

    const now = ctx.clock.now().toISOString();
    const id = newId();
    const row = {
      id,
      workspace_id: ctx.actor.workspaceId,
      name: input.name,
      slug: input.slug ?? slugFromName(input.name),
      status: 'draft' as const,
      online: toFlag(online),
      venue_name: input.venue?.name ?? null,
      venue_address: input.venue?.address ?? null,
      venue_city: input.venue?.city ?? null,
      venue_country: input.venue?.country ?? null,
      time_zone: input.timeZone,
      starts_utc: times.starts,
      ends_utc: times.ends,
      languages: JSON.stringify(input.languages ?? ['en']),
      currency: input.currency,
      modules: JSON.stringify(input.modules ?? {}),
      community_id: null,
      payment_methods: 'transfer' as const,
      created_utc: now,
      updated_utc: now,
      change_seq: await nextChangeSeq(ctx.db),
    };
    row.slug = await insertWithFreeSlug(ctx, row, input.slug !== undefined);
    return eventView(ctx, row);
  },
});

/**
 * Inserts the event. Slugs are unique across the deployment (an event's address /e/{slug} is), and
 * the unique index is what decides, so two creates of one slug at once cannot both win: an explicit
 * slug already taken answers 409 slugTaken (declared: unique); a slug made from the name moves on to
 * the next free suffix (-2, -3, ...), and after a few collisions in a row names the one it tried.
 * Answers the slug used.
 */
async function insertWithFreeSlug(ctx: Ctx, row: NewEventRow, explicit: boolean): Promise<string> {
  let slug = explicit ? row.slug : await freeSlug(ctx, row.slug);
  for (let attempt = 0; ; attempt++) {
    try {
      await withSavepoint(ctx.db, () =>
        ctx.db
          .insertInto('events')
          .values({ ...row, slug })
          .execute(),
      );
      return slug;
    } catch (error) {
      if (explicit || violatedUnique(error) !== 'events.slug') throw error;
      if (attempt >= 5) throw slugTaken(slug);
      slug = await freeSlug(ctx, row.slug);
    }
  }
}

/** The base, or the base with the first free suffix. */
async function freeSlug(ctx: Ctx, base: string): Promise<string> {
  const taken = new Set(
    (
      await ctx.db
        .selectFrom('events')
        .select('slug')
        .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
        .execute()
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
