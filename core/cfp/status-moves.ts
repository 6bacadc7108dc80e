// Where a submission may go from where it stands (README, "Call for speakers"): draft → submitted →
// underReview → accepted, waitlisted or rejected; waitlisted → accepted or rejected; anything but
// rejected (and withdrawn itself) → withdrawn. Every move is kept in submission_status_changes.
import type { SubmissionRow } from '../../db/schema';
import type { SubmissionStatus } from '../../db/values';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { changedNow } from '../platform/storage/change-stamp';

export const statusMoves: Record<SubmissionStatus, readonly SubmissionStatus[]> = {
  draft: ['submitted', 'withdrawn'],
  submitted: ['underReview', 'withdrawn'],
  underReview: ['accepted', 'waitlisted', 'rejected', 'withdrawn'],
  waitlisted: ['accepted', 'rejected', 'withdrawn'],
  accepted: ['withdrawn'],
  rejected: [],
  withdrawn: [],
};

const decisions: readonly SubmissionStatus[] = ['accepted', 'waitlisted', 'rejected'];

/** The statuses in which the speaker may still change it and reviewers review it. */
export const openStatuses: readonly SubmissionStatus[] = ['draft', 'submitted', 'underReview'];
export const reviewableStatuses: readonly SubmissionStatus[] = ['submitted', 'underReview'];

/** Refuses, naming where it stands, what its status does not allow. */
export function refuseUnlessIn(
  row: Pick<SubmissionRow, 'status'>,
  allowed: readonly SubmissionStatus[],
  what: string,
): void {
  if (!allowed.includes(row.status))
    throw problem('statusNotAllowed', `The submission is ${row.status}: ${what}`, {
      currentStatus: row.status,
      allowedStatuses: statusMoves[row.status],
    });
}

function refuseMove(from: SubmissionStatus, to: SubmissionStatus): never {
  const allowed = statusMoves[from];
  throw problem(
    'statusNotAllowed',
    `A ${from} submission cannot become ${to}; from ${from} it can become ${allowed.length > 0 ? allowed.join(', ') : 'nothing else'}.`,
    { currentStatus: from, allowedStatuses: allowed },
  );
}

/**
 * Moves the submission from the status it was read in to `to`, kept in its history. The update is
 * conditional on that status, so two moves at once cannot both pass from the same place.
 */
export async function moveStatus(
  ctx: Ctx,
  row: SubmissionRow,
  to: SubmissionStatus,
  sessionId: string | null = null,
): Promise<void> {
  if (!statusMoves[row.status].includes(to)) refuseMove(row.status, to);
  const stamp = await changedNow(ctx);
  const moved = await ctx.db
    .updateTable('submissions')
    .set({
      status: to,
      session_id: to === 'accepted' ? sessionId : null,
      submitted_utc: row.submitted_utc ?? stamp.updated_utc,
      decided_utc: decisions.includes(to) ? stamp.updated_utc : row.decided_utc,
      ...stamp,
    })
    .where('id', '=', row.id)
    .where('status', '=', row.status)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 0) {
    const now = await ctx.db
      .selectFrom('submissions')
      .select('status')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    refuseMove(now.status, to);
  }
  await ctx.db
    .insertInto('submission_status_changes')
    .values({
      workspace_id: ctx.actor.workspaceId,
      submission_id: row.id,
      status: to,
      at_utc: stamp.updated_utc,
    })
    .execute();
}
