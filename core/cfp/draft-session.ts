// Accepting a submission can put it in the programme as a draft session: its title, abstract,
// track, language and speakers (matched to the event's programme speakers by email, added when
// none has it). A draft is the organiser's only (left out of the public event page) until they
// publish it (PATCH the session with draft false). Withdrawing the submission removes its session
// while it is a draft; a published one stays until the organiser unpublishes or removes it.
import * as v from 'valibot';
import type { EventRow, SubmissionRow } from '../../db/schema';
import type { SessionKind, SubmissionFormat } from '../../db/values';
import { resolveTimes } from '../events';
import type { Ctx } from '../platform/context';
import { FieldErrors } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { lockForChange } from '../platform/pipeline/load-event-row';
import { problem } from '../platform/problems';
import { madeNow } from '../platform/storage/change-stamp';
import { checkCapacity, checkPlacement, refuseClash, sessionFields, touchSpeakers } from '../programme';

export const draftSessionInput = v.pipe(
  v.object({
    startsLocal: v.optional(sessionFields.startsLocal),
    endsLocal: v.optional(sessionFields.endsLocal),
    startsUtc: v.optional(sessionFields.startsUtc),
    endsUtc: v.optional(sessionFields.endsUtc),
    roomId: v.optional(sessionFields.roomId),
    allowClash: v.optional(sessionFields.allowClash),
  }),
  v.description(
    'Only with status accepted: put it in the programme as a draft session at this time (and room). Absent: accepted without a session.',
  ),
);

export type DraftSessionInput = v.InferOutput<typeof draftSessionInput>;

const kindOf: Record<SubmissionFormat, SessionKind> = {
  talk: 'talk',
  lightning: 'talk',
  workshop: 'workshop',
  panel: 'panel',
};

/** Checks the time and room asked for; answers what to make, once the caller's errors are thrown. */
export async function planDraftSession(
  ctx: Ctx,
  event: EventRow,
  asked: DraftSessionInput,
  errors: FieldErrors,
) {
  const scoped = new FieldErrors();
  const times = resolveTimes(asked, event.time_zone, { starts: null, ends: null }, scoped);
  const { room } = await checkPlacement(ctx, event, { roomId: asked.roomId }, scoped);
  checkCapacity(room ?? null, null, scoped);
  for (const e of scoped.list) errors.add(`session.${e.field}`, e.message);
  return {
    starts: times.starts,
    ends: times.ends,
    room: room ?? null,
    allowClash: asked.allowClash === true,
  };
}

/** Makes the draft session of an accepted submission; answers its id. */
export async function makeDraftSession(
  ctx: Ctx,
  event: EventRow,
  submission: SubmissionRow,
  plan: Awaited<ReturnType<typeof planDraftSession>>,
): Promise<string> {
  const starts = plan.starts!;
  const ends = plan.ends!;
  if (plan.room && !plan.allowClash) await refuseClash(ctx, plan.room.id, starts, ends, null);
  const speakerIds = await programmeSpeakers(ctx, event, submission.id);
  const id = newId();
  await ctx.db
    .insertInto('sessions')
    .values({
      id,
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      title: submission.title,
      summary: submission.abstract,
      kind: kindOf[submission.format],
      room_id: plan.room?.id ?? null,
      track_id: submission.track_id,
      starts_utc: starts,
      ends_utc: ends,
      capacity: null,
      language: submission.language,
      join_provider: null,
      join_url: null,
      speaker_ids: JSON.stringify(speakerIds),
      draft: 1,
      ...(await madeNow(ctx)),
    })
    .execute();
  await touchSpeakers(ctx, event.id, speakerIds);
  return id;
}

/** The submission's speakers as programme speakers: the event's speaker with that email, or a new one. */
async function programmeSpeakers(ctx: Ctx, event: EventRow, submissionId: string): Promise<string[]> {
  const speakers = await ctx.db
    .selectFrom('submission_speakers')
    .selectAll()
    .where('submission_id', '=', submissionId)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
  const ids: string[] = [];
  for (const s of speakers) {
    // An erased speaker has no details left to put in the programme.
    if (s.erased === 1 || s.name === null) continue;
    const known = s.email
      ? await ctx.db
          .selectFrom('speakers')
          .select('id')
          .where('event_id', '=', event.id)
          .where('email', '=', s.email)
          .orderBy('created_utc')
          .orderBy('id')
          .executeTakeFirst()
      : undefined;
    if (known) {
      if (!ids.includes(known.id)) ids.push(known.id);
      continue;
    }
    const id = newId();
    await ctx.db
      .insertInto('speakers')
      .values({
        id,
        workspace_id: ctx.actor.workspaceId,
        event_id: event.id,
        name: s.name,
        email: s.email,
        company: s.company,
        job_title: null,
        bio: s.bio,
        photo_url: null,
        erased: 0,
        ...(await madeNow(ctx)),
      })
      .execute();
    ids.push(id);
  }
  return ids;
}

/**
 * Before an accepted submission is withdrawn: its draft session goes (its speakers stay in the
 * programme's list); a published one refuses the withdrawal, naming it.
 */
export async function dropDraftSession(ctx: Ctx, submission: SubmissionRow): Promise<void> {
  if (!submission.session_id) return;
  // The submission's row before the session's, as the session's removal takes them (it unlinks the
  // submission first); the other way round, the two met in a circle on PostgreSQL.
  await lockForChange(ctx, 'submissions', submission.event_id, submission.id);
  const session = await ctx.db
    .selectFrom('sessions')
    .select(['id', 'draft', 'event_id', 'speaker_ids'])
    .where('id', '=', submission.session_id)
    .executeTakeFirst();
  if (!session) return;
  if (session.draft !== 1)
    throw problem(
      'sessionPublished',
      `The submission became session ${session.id}, which is in the public programme; the organiser unpublishes it (draft true) or removes it first.`,
      { sessionId: session.id },
    );
  await ctx.db.deleteFrom('sessions').where('id', '=', session.id).execute();
  await touchSpeakers(ctx, session.event_id, JSON.parse(session.speaker_ids) as string[]);
}
