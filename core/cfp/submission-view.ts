// The Submission resource of the call for speakers: what a speaker proposed, where it stands, who
// would give it (personal data, speaker by speaker) and the reviewers' average score, read from the
// review rows every time. The detail adds the status history.
import * as v from 'valibot';
import type { SubmissionRow, SubmissionSpeakerRow } from '../../db/schema';
import { submissionFormats, submissionStatuses } from '../../db/values';
import { roundTo2 } from '../platform/average';
import type { Ctx } from '../platform/context';
import { applyPersonalData, declarePersonal, type Reader } from '../platform/pipeline/personal-data';
import { problem } from '../platform/problems';
import { dateTime, int32, personalDataSchema, text, uuid } from '../platform/schemas';

/** A speaker's details are theirs: withheld without people:read, gone once they erase their data. */
export const submissionSpeakerPersonal = declarePersonal({
  resource: 'submission speaker',
  idField: 'submissionSpeakerId',
  table: 'submission_speakers',
  fields: { name: 'name', email: 'email', company: 'company', bio: 'bio' },
  emailColumn: 'email',
  shownIn: { table: 'submissions', column: 'submission_id' },
});

const personal = (description: string) => `${description} Personal data: null without people:read.`;

export const submissionSpeakerSchema = v.object({
  submissionSpeakerId: uuid('This speaker of the submission.'),
  name: v.nullable(text(personal('Name.'))),
  email: v.nullable(v.pipe(v.string(), v.email(), v.description(personal('Email address.')))),
  company: v.nullable(text(personal('Company.'))),
  bio: v.nullable(text(personal('Short biography.'))),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

const statusSchema = v.pipe(
  v.picklist(submissionStatuses),
  v.description('draft, submitted, underReview, accepted, waitlisted, rejected or withdrawn.'),
);

export const submissionSchema = v.object({
  submissionId: uuid('The submission id.'),
  eventId: uuid('The event id.'),
  title: text('Its title.'),
  abstract: text('What it is about, as the speaker wrote it.'),
  format: v.pipe(v.picklist(submissionFormats), v.description('talk, workshop, lightning or panel.')),
  trackId: v.nullable(uuid('The track it was submitted to; null: none chosen.')),
  language: text('Language it would be given in (a language tag).'),
  status: statusSchema,
  speakers: v.pipe(
    v.array(submissionSpeakerSchema),
    v.description('Who would give it, the speaker who sent it first; each follows the personal-data rule.'),
  ),
  sessionId: v.nullable(uuid('The session it became; only once accepted.')),
  submittedUtc: v.nullable(dateTime('When it was sent; null for a draft.')),
  decidedUtc: v.nullable(dateTime('When it was last accepted, waitlisted or rejected.')),
  reviews: int32('How many reviewers scored it.'),
  rating: v.nullable(
    v.pipe(
      v.number(),
      v.minValue(1),
      v.maxValue(5),
      v.description("The reviewers' average score, 1 to 5, two decimals; null before any review."),
    ),
  ),
  updatedUtc: dateTime('Last change (its speakers included).'),
});

export const statusChangeSchema = v.object({
  status: statusSchema,
  atUtc: dateTime('When it took this status.'),
});

export const submissionDetailSchema = v.object({
  ...submissionSchema.entries,
  history: v.pipe(
    v.array(statusChangeSchema),
    v.description('Every status it had, oldest first; the last is its status now.'),
  ),
});

export type SubmissionView = v.InferOutput<typeof submissionSchema>;
export type SubmissionDetail = v.InferOutput<typeof submissionDetailSchema>;

export function submissionSpeakerView(reader: Reader, row: SubmissionSpeakerRow) {
  return applyPersonalData(
    reader,
    { submissionSpeakerId: row.id, name: row.name, email: row.email, company: row.company, bio: row.bio },
    submissionSpeakerPersonal,
    row.erased === 1,
  );
}

/** Views of a page of submissions, with their speakers in order and the reviews counted. */
export async function submissionViews(ctx: Ctx, rows: SubmissionRow[]): Promise<Map<string, SubmissionView>> {
  if (rows.length === 0) return new Map();
  const ids = rows.map((r) => r.id);
  const speakers = await ctx.db
    .selectFrom('submission_speakers')
    .selectAll()
    .where('submission_id', 'in', ids)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
  const reviews = await ctx.db
    .selectFrom('submission_reviews')
    .select([
      'submission_id',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.sum<number>('score').as('sum'),
    ])
    .where('submission_id', 'in', ids)
    .groupBy('submission_id')
    .execute();
  return new Map(
    rows.map((row) => {
      const scored = reviews.find((r) => r.submission_id === row.id);
      const n = Number(scored?.n ?? 0);
      return [
        row.id,
        {
          submissionId: row.id,
          eventId: row.event_id,
          title: row.title,
          abstract: row.abstract,
          format: row.format,
          trackId: row.track_id,
          language: row.language,
          status: row.status,
          speakers: speakers
            .filter((s) => s.submission_id === row.id)
            .map((s) => submissionSpeakerView(ctx.actor, s)),
          sessionId: row.session_id,
          submittedUtc: row.submitted_utc,
          decidedUtc: row.decided_utc,
          reviews: n,
          rating: n > 0 ? roundTo2(Number(scored!.sum) / n) : null,
          updatedUtc: row.updated_utc,
        },
      ];
    }),
  );
}

/** A submission of the event; one of another event (or workspace) answers 404 notFound. */
export async function loadSubmission(
  ctx: Ctx,
  eventId: string,
  submissionId: string,
): Promise<SubmissionRow> {
  const query = ctx.db
    .selectFrom('submissions')
    .selectAll()
    .where('id', '=', submissionId)
    .where('event_id', '=', eventId);
  const row = await query.executeTakeFirst();
  if (!row) throw problem('notFound', `No submission ${submissionId} in this event.`);
  return row;
}

/** One submission as the single GET answers it: the view and its status history. */
export async function submissionDetail(ctx: Ctx, row: SubmissionRow): Promise<SubmissionDetail> {
  const view = (await submissionViews(ctx, [row])).get(row.id)!;
  const history = await ctx.db
    .selectFrom('submission_status_changes')
    .select(['status', 'at_utc'])
    .where('submission_id', '=', row.id)
    .orderBy('at_utc')
    .orderBy('id')
    .execute();
  return { ...view, history: history.map((h) => ({ status: h.status, atUtc: h.at_utc })) };
}
