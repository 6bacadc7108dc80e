// A member's status moves (approved, declined, left) by one conditional update from the status read,
// so two changes at the same moment cannot both act on it: the one that finds the status moved reads
// it again and decides anew. Each use case then sends the messages of the move it made.
import type { CommunityMemberRow, CommunityRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { type Unchanged, unchanged } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { changedNow } from '../platform/storage/change-stamp';
import { loadCommunity } from './community-view';
import { type MemberView, memberView } from './member-view';

export interface MemberMove {
  community: CommunityRow;
  before: CommunityMemberRow;
  after: CommunityMemberRow;
}

export async function loadMember(
  ctx: Ctx,
  community: CommunityRow,
  memberId: string,
): Promise<CommunityMemberRow> {
  const member = await ctx.db
    .selectFrom('community_members')
    .selectAll()
    .where('id', '=', memberId)
    .where('community_id', '=', community.id)
    .executeTakeFirst();
  if (!member) throw problem('notFound', `No member ${memberId} in community ${community.id}.`);
  return member;
}

/**
 * Moves a member as `rule` says (the changes for the member as read, or null for none; a refusal is
 * thrown there); a member already where the rule leaves them changed nothing. Statuses only move
 * forward (pending, active, left), so reading again ends after two moves at most.
 */
export async function moveMember(
  ctx: Ctx,
  input: { communityId: string; memberId: string },
  rule: (member: CommunityMemberRow, now: string) => Partial<CommunityMemberRow> | null,
): Promise<MemberMove> {
  const community = await loadCommunity(ctx, input.communityId);
  for (;;) {
    const before = await loadMember(ctx, community, input.memberId);
    const stamp = await changedNow(ctx);
    const changes = rule(before, stamp.updated_utc);
    if (changes === null) return { community, before, after: before };
    const moved = await ctx.db
      .updateTable('community_members')
      .set({ ...changes, ...stamp })
      .where('id', '=', before.id)
      .where('status', '=', before.status)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 1)
      return { community, before, after: { ...before, ...changes, ...stamp } };
  }
}

/** The member as the move leaves them: unchanged (no activity entry) when it moved nothing. */
export function movedMember(ctx: Ctx, move: MemberMove): MemberView | Unchanged<MemberView> {
  const view = memberView(ctx.actor, move.after);
  return move.after === move.before ? unchanged(view) : view;
}
