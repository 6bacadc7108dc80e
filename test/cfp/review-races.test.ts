// The call for speakers under concurrent calls, each pair having read before either writes
// (test/support/interleave.ts), on SQLite and PostgreSQL: two reviews from the same reviewer at
// once give one review (the unique index on submission and reviewer, with an upsert), and two
// moves from the same status at once give one move (the update is conditional on the status).
import { describe, expect, it } from 'vitest';
import { changeSubmissionStatus } from '../../core/cfp/change-submission-status';
import { createSubmission } from '../../core/cfp/create-submission';
import { reviewSubmission } from '../../core/cfp/review-submission';
import { createEvent } from '../../core/events/create-event';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, atOnce, db } = raceHarness('Call for speakers races');

async function submitted() {
  const { eventId } = await call(createEvent, eventBody());
  const submission = await call(createSubmission, {
    eventId,
    title: 'Racing reviews',
    abstract: 'Two at once.',
    format: 'talk',
    language: 'en',
    speakers: [{ name: 'Ada', email: 'ada@example.org' }],
  });
  return { eventId, submissionId: submission.submissionId as string };
}

describe('two calls that have both read before either writes', () => {
  it('keeps one review when the same reviewer sends two at once', async () => {
    const { eventId, submissionId } = await submitted();
    const answers = await atOnce(
      [reviewSubmission, { eventId, submissionId, reviewer: 'rev@example.org', score: 2 }],
      [reviewSubmission, { eventId, submissionId, reviewer: 'REV@example.org', score: 5 }],
    );
    for (const a of answers) expect(a, JSON.stringify(a)).toMatchObject({ reviewer: 'rev@example.org' });
    const rows = await db()
      .selectFrom('submission_reviews')
      .select(['reviewer_email', 'score'])
      .where('submission_id', '=', submissionId)
      .execute();
    expect(rows).toHaveLength(1);
    expect([2, 5]).toContain(rows[0]!.score);
  });

  it('moves a submission once when two moves from the same status arrive at once', async () => {
    const { eventId, submissionId } = await submitted();
    await call(changeSubmissionStatus, { eventId, submissionId, status: 'underReview' });
    const answers = await atOnce(
      [changeSubmissionStatus, { eventId, submissionId, status: 'accepted' }],
      [changeSubmissionStatus, { eventId, submissionId, status: 'rejected' }],
    );
    expect(answers.map((a) => (typeof a === 'string' ? a : 'moved')).sort()).toEqual([
      'moved',
      'statusNotAllowed',
    ]);
    const history = await db()
      .selectFrom('submission_status_changes')
      .select('status')
      .where('submission_id', '=', submissionId)
      .execute();
    expect(history).toHaveLength(3);
  });
});
