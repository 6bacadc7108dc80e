import * as v from 'valibot';
import { detail, mention } from '../platform/mentions';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { leaveCommunity } from './leave-community';
import { movedMember, moveMember } from './member-status';
import { memberSchema } from './member-view';

export const declineCommunityMember = defineOperation({
  name: 'declineCommunityMember',
  title: 'Decline a member',
  description:
    'Declines someone waiting to join a community: their request ends (status left) and they never became a member. To remove an active member use leave_community. Needs communities:write.',
  scope: 'communities:write',
  effect: 'write',
  extension: true,
  repeatable: true,
  problems: ['notFound', 'memberNotPending'],
  activity: {
    resourceType: 'communityMember',
    resourceId: (_input, member) => member.memberId,
    summary: () => 'declined',
  },
  input: v.object({
    communityId: uuid('The community id.'),
    memberId: uuid('The member id.'),
  }),
  output: memberSchema,
  async handler(ctx, input) {
    // No member.left: someone declined was never a member (member.joined was not sent for them).
    const move = await moveMember(ctx, input, (member, now) => {
      if (member.status === 'active')
        throw problem(
          'memberNotPending',
          detail`This person is an active member: to remove them, use ${mention(leaveCommunity)}.`,
        );
      if (member.status === 'left') return null;
      return { status: 'left', left_utc: now };
    });
    return movedMember(ctx, move);
  },
});
