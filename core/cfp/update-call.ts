// Opening and closing the call is setting its window: opensUtc now (or earlier) opens it, closesUtc
// now closes it, closesUtc null keeps it open until closed. Venue times are read in the event's zone.
import * as v from 'valibot';
import { FieldErrors } from '../platform/field-errors';
import { loadEvent, loadEventForChange } from '../platform/pipeline/load-event';
import { heldEventIds } from '../platform/pipeline/load-event-row';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { dateTime, localTime, uuid } from '../platform/schemas';
import { fromLocal, parseInstant } from '../platform/time';
import { callSchema, callView, formatSchema, loadCall } from './call-view';

export const updateCallForSpeakers = defineOperation({
  name: 'updateCallForSpeakers',
  title: 'Open, close or change the call for speakers',
  description:
    'Opens, closes or changes the call for speakers; send only what changes. opensUtc now opens it, closesUtc now closes it, closesUtc null keeps it open. formats and trackIds are what speakers may choose. Needs cfp:write.',
  scope: 'cfp:write',
  effect: 'write',
  changesEvent: true,
  repeatable: true,
  extension: true,
  module: 'cfp',
  activity: { resourceType: 'callForSpeakers', resourceId: (input) => input.eventId },
  problems: [],
  etag: true,
  ifMatch: {
    hold: heldRow('events', (input) => input.eventId),
    async current(ctx, input) {
      const event = await loadEvent(ctx, input.eventId);
      return callView(ctx, event, await loadCall(ctx, event.id));
    },
  },
  input: v.object({
    eventId: uuid('The event id.'),
    opensUtc: v.optional(v.nullable(dateTime('When it opens; null: not open. Wins over opensLocal.'))),
    opensLocal: v.optional(localTime('When it opens')),
    closesUtc: v.optional(
      v.nullable(dateTime('When it closes; null: open until closed. Wins over closesLocal.')),
    ),
    closesLocal: v.optional(localTime('When it closes')),
    formats: v.optional(
      v.pipe(v.array(formatSchema), v.minLength(1), v.description('The formats offered, at least one.')),
    ),
    trackIds: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.uuid())),
        v.maxLength(100),
        v.description("The tracks offered, the event's own; empty: speakers choose no track."),
      ),
    ),
  }),
  output: callSchema,
  async handler(ctx, input) {
    // The event's row locked for the change: the call is one row an event, perhaps not written
    // yet, and a change writes all of it back from what it read: of two at once, one was lost.
    const event = await loadEventForChange(ctx, input.eventId);
    const call = await loadCall(ctx, event.id);
    const errors = new FieldErrors();
    const instant = (
      utc: string | null | undefined,
      local: string | undefined,
      field: string,
      current: string | null,
    ) => {
      if (utc !== undefined) return utc === null ? null : parseInstant(utc);
      if (local === undefined) return current;
      const parsed = fromLocal(local, event.time_zone);
      if (!parsed) errors.add(`${field}Local`, `Not a real local time in ${event.time_zone}.`);
      return parsed;
    };
    const opens = instant(input.opensUtc, input.opensLocal, 'opens', call.opensUtc);
    const closes = instant(input.closesUtc, input.closesLocal, 'closes', call.closesUtc);
    if (opens && closes && Date.parse(closes) <= Date.parse(opens))
      errors.add('closesUtc', 'The call must close after it opens.');
    const formats = input.formats ?? call.formats;
    input.formats?.forEach((f, i) => {
      if (input.formats!.indexOf(f) !== i) errors.add(`formats.${i}`, `${f} is named twice.`);
    });
    const trackIds = input.trackIds ?? call.trackIds;
    if (input.trackIds && input.trackIds.length > 0) {
      // Held (referencedRow): a track's removal meanwhile waits and sees the call offer it, or has
      // removed it and it is not found here, never left named by the call.
      const known = await heldEventIds(ctx, 'tracks', event.id, input.trackIds);
      input.trackIds.forEach((id, i) => {
        if (!known.has(id)) errors.add(`trackIds.${i}`, `${id} is not a track of this event.`);
        else if (input.trackIds!.indexOf(id) !== i) errors.add(`trackIds.${i}`, `${id} is named twice.`);
      });
    }
    errors.throwIfAny();
    const now = ctx.clock.now().toISOString();
    const values = {
      opens_utc: opens,
      closes_utc: closes,
      formats: JSON.stringify(formats),
      track_ids: JSON.stringify(trackIds),
      updated_utc: now,
    };
    await ctx.db
      .insertInto('calls_for_speakers')
      .values({ event_id: event.id, workspace_id: ctx.actor.workspaceId, created_utc: now, ...values })
      .onConflict((oc) => oc.column('event_id').doUpdateSet(values))
      .execute();
    return callView(ctx, event, await loadCall(ctx, event.id));
  },
});
