// A reviewer's review of a submission: the score (1 to 5) and comment, and who gave it, named by
// their email address (personal data: null without people:read, gone when they erase their data;
// the score still counts in the submission's rating). Reviews from before reviewers were named
// have no reviewer.
import * as v from 'valibot';
import type { SubmissionReviewRow } from '../../db/schema';
import { applyPersonalData, declarePersonal, type Reader } from '../platform/pipeline/personal-data';
import { dateTime, int32, personalDataSchema, text, uuid } from '../platform/schemas';

export const reviewPersonal = declarePersonal({
  resource: 'submission review',
  idField: 'reviewId',
  table: 'submission_reviews',
  fields: { reviewer: 'reviewer_email' },
  emailColumn: 'reviewer_email',
});

export const reviewSchema = v.object({
  reviewId: uuid('The review id.'),
  submissionId: uuid('The submission reviewed.'),
  reviewer: v.nullable(
    v.pipe(
      v.string(),
      v.email(),
      v.description(
        "The reviewer's email address; null when not named. Personal data: null without people:read.",
      ),
    ),
  ),
  score: int32('1 (weakest) to 5 (strongest).'),
  comment: v.nullable(text("The reviewer's comment.")),
  reviewedUtc: dateTime('When it was given or last changed.'),
  updatedUtc: dateTime('Last change; pass the newest as updatedSince.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export type ReviewView = v.InferOutput<typeof reviewSchema>;

export function reviewView(reader: Reader, row: SubmissionReviewRow): ReviewView {
  return applyPersonalData(
    reader,
    {
      reviewId: row.id,
      submissionId: row.submission_id,
      reviewer: row.reviewer_email,
      score: row.score,
      comment: row.comment,
      reviewedUtc: row.reviewed_utc,
      updatedUtc: row.updated_utc,
    },
    reviewPersonal,
    row.erased === 1,
  );
}
