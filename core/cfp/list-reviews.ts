import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { reviewSchema, reviewView } from './review-view';
import { loadSubmission } from './submission-view';

export const listSubmissionReviews = defineOperation({
  name: 'listSubmissionReviews',
  title: "List a submission's reviews",
  description:
    "Lists a submission's reviews, oldest change first: score, comment and reviewer (personal data: needs people:read). Needs cfp:read.",
  scope: 'cfp:read',
  effect: 'read',
  extension: true,
  module: 'cfp',
  problems: ['notFound'],
  input: v.object({
    eventId: uuid('The event id.'),
    submissionId: uuid('The submission id.'),
    ...cursorFields,
  }),
  output: pageOf(reviewSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const submission = await loadSubmission(ctx, event.id, input.submissionId);
    const plan = planPage(ctx, input, {
      list: 'submissionReviews',
      filters: { eventId: event.id, submissionId: submission.id },
    });
    const query = ctx.db
      .selectFrom('submission_reviews')
      .selectAll()
      .where('submission_id', '=', submission.id);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('submission_reviews')));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => reviewView(ctx.actor, row));
  },
});
