// The call for speakers of an event: when it takes submissions (its window, in UTC and venue time),
// the formats and tracks it offers, and whether it is open now (computed, never stored). An event
// whose call was never set has a closed call offering every format and no track.
import * as v from 'valibot';
import type { CallForSpeakersRow, EventRow } from '../../db/schema';
import { type SubmissionFormat, submissionFormats } from '../../db/values';
import type { Ctx } from '../platform/context';
import { dateTime, localTime, uuid } from '../platform/schemas';
import { toLocalOrNull } from '../platform/time';

export const formatSchema = v.pipe(
  v.picklist(submissionFormats),
  v.description('talk, workshop, lightning or panel.'),
);

export const callSchema = v.object({
  eventId: uuid('The event id.'),
  opensUtc: v.nullable(dateTime('When it starts taking submissions; null: not opened.')),
  closesUtc: v.nullable(dateTime('When it stops taking submissions; null: open until closed.')),
  opensLocal: v.nullable(localTime('When it opens')),
  closesLocal: v.nullable(localTime('When it closes')),
  open: v.pipe(
    v.boolean(),
    v.description('Whether speakers can send submissions now: opened, and not yet closed.'),
  ),
  formats: v.pipe(v.array(formatSchema), v.description('The formats a speaker may choose.')),
  trackIds: v.pipe(
    v.array(v.pipe(v.string(), v.uuid())),
    v.description('The tracks a speaker may choose; empty: speakers choose no track.'),
  ),
  updatedUtc: v.nullable(dateTime('Last change; null: never set.')),
});

export type CallView = v.InferOutput<typeof callSchema>;

/** The call as stored: the row, or what an event without one has. */
export interface Call {
  opensUtc: string | null;
  closesUtc: string | null;
  formats: SubmissionFormat[];
  trackIds: string[];
  updatedUtc: string | null;
}

export async function loadCall(ctx: Ctx, eventId: string): Promise<Call> {
  const row: CallForSpeakersRow | undefined = await ctx.db
    .selectFrom('calls_for_speakers')
    .selectAll()
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  if (!row)
    return {
      opensUtc: null,
      closesUtc: null,
      formats: [...submissionFormats],
      trackIds: [],
      updatedUtc: null,
    };
  return {
    opensUtc: row.opens_utc,
    closesUtc: row.closes_utc,
    formats: JSON.parse(row.formats) as SubmissionFormat[],
    trackIds: JSON.parse(row.track_ids) as string[],
    updatedUtc: row.updated_utc,
  };
}

export function isOpen(call: Pick<Call, 'opensUtc' | 'closesUtc'>, now: Date): boolean {
  if (call.opensUtc === null || now < new Date(call.opensUtc)) return false;
  return call.closesUtc === null || now < new Date(call.closesUtc);
}

export function callView(ctx: Ctx, event: EventRow, call: Call): CallView {
  return {
    eventId: event.id,
    opensUtc: call.opensUtc,
    closesUtc: call.closesUtc,
    opensLocal: toLocalOrNull(call.opensUtc, event.time_zone),
    closesLocal: toLocalOrNull(call.closesUtc, event.time_zone),
    open: isOpen(call, ctx.clock.now()),
    formats: call.formats,
    trackIds: call.trackIds,
    updatedUtc: call.updatedUtc,
  };
}
