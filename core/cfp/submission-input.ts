// What a submission is made of, and the rules of the call for a speaker-facing caller: inside the
// window (409 callClosed), with a format and a track the call offers (400 naming the field). The
// organiser (cfp:write) may add or change one at any time, any format, any track of the event
// (an invited talk); a track must always be the event's own.
import * as v from 'valibot';
import { referencedRow } from '../../db/dialect';
import type { EventRow } from '../../db/schema';
import type { SubmissionFormat } from '../../db/values';
import type { Ctx } from '../platform/context';
import type { FieldErrors } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { problem } from '../platform/problems';
import {
  emailAddress,
  languageTagMessage,
  languageTagPattern,
  multiLine,
  oneLine,
  personName,
  uuid,
} from '../platform/schemas';
import { hasScope } from '../platform/scopes';
import { formatSchema, isOpen, loadCall } from './call-view';

const speakerInput = v.object({
  name: personName,
  email: emailAddress('Their email address. Personal data.'),
  company: v.optional(
    v.nullable(v.pipe(v.string(), oneLine, v.maxLength(200), v.description('Company. Personal data.'))),
  ),
  bio: v.optional(
    v.nullable(
      v.pipe(v.string(), multiLine, v.maxLength(5_000), v.description('Short biography. Personal data.')),
    ),
  ),
});

export const submissionFields = {
  title: v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(300), v.description('Its title.')),
  abstract: v.pipe(
    v.string(),
    multiLine,
    v.minLength(1),
    v.maxLength(20_000),
    v.description('What it is about.'),
  ),
  format: formatSchema,
  trackId: v.nullable(uuid('The track it is sent to; null: none.')),
  language: v.pipe(
    v.string(),
    v.regex(languageTagPattern, languageTagMessage),
    v.description('Language it would be given in, e.g. en.'),
  ),
  speakers: v.pipe(
    v.array(speakerInput),
    v.minLength(1),
    v.maxLength(20),
    v.description('Who would give it, at least one; the first is who sends it.'),
  ),
};

export type SpeakerInput = v.InferOutput<typeof speakerInput>;

/** Whether the caller is the organiser (cfp:write), not only a speaker-facing site. */
export function isOrganiser(ctx: Ctx): boolean {
  return hasScope(ctx.actor.scopes, 'cfp:write');
}

/** Checks what is sent against the call (and the event's tracks); adds to `errors` what is wrong. */
export async function checkAgainstCall(
  ctx: Ctx,
  event: EventRow,
  sent: { format?: SubmissionFormat; trackId?: string | null; title?: string; abstract?: string },
  errors: FieldErrors,
): Promise<void> {
  if (sent.title?.trim() === '') errors.add('title', 'The title cannot be blank.');
  if (sent.abstract?.trim() === '') errors.add('abstract', 'The abstract cannot be blank.');
  if (sent.trackId) {
    // Held as the submission will refer to it (db/dialect.ts referencedRow): a removal of the track
    // counting its submissions waits for this write, or has removed it and it is not found here.
    const track = await referencedRow(
      ctx.db,
      ctx.db
        .selectFrom('tracks')
        .select('id')
        .where('id', '=', sent.trackId)
        .where('event_id', '=', event.id),
    ).executeTakeFirst();
    if (!track) errors.add('trackId', `${sent.trackId} is not a track of this event.`);
  }
  if (isOrganiser(ctx)) return;
  const call = await loadCall(ctx, event.id);
  if (!isOpen(call, ctx.clock.now())) {
    errors.throwIfAny();
    throw problem(
      'callClosed',
      call.opensUtc === null || ctx.clock.now() < new Date(call.opensUtc)
        ? `The call for speakers is not open${call.opensUtc ? `; it opens at ${call.opensUtc}` : ''}.`
        : `The call for speakers closed at ${call.closesUtc}.`,
      { opensUtc: call.opensUtc, closesUtc: call.closesUtc },
    );
  }
  if (sent.format && !call.formats.includes(sent.format))
    errors.add('format', `The call offers ${call.formats.join(', ')}; not ${sent.format}.`);
  if (sent.trackId && !call.trackIds.includes(sent.trackId))
    errors.add('trackId', `The call does not offer the track ${sent.trackId}.`);
}

/** Writes the speakers of a submission, in order, in place of any it had. */
export async function writeSpeakers(
  ctx: Ctx,
  submissionId: string,
  speakers: SpeakerInput[],
  stamp: { created_utc: string; updated_utc: string },
  nextSeq: () => Promise<number>,
): Promise<void> {
  await ctx.db.deleteFrom('submission_speakers').where('submission_id', '=', submissionId).execute();
  for (const [i, s] of speakers.entries())
    await ctx.db
      .insertInto('submission_speakers')
      .values({
        id: newId(),
        workspace_id: ctx.actor.workspaceId,
        submission_id: submissionId,
        sort_order: i,
        name: s.name.trim(),
        email: s.email.toLowerCase(),
        company: s.company ?? null,
        bio: s.bio ?? null,
        erased: 0,
        ...stamp,
        change_seq: await nextSeq(),
      })
      .execute();
}
