import * as v from 'valibot';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { memberJoined } from './member-messages';
import { movedMember, moveMember } from './member-status';
import { memberSchema } from './member-view';

export const approveCommunityMember = defineOperation({
  name: 'approveCommunityMember',
  title: 'Approve a member',
  description:
    'Approves someone waiting to join a community that approves its members: they become active. Approving an active member changes nothing. Needs communities:write.',
  scope: 'communities:write',
  effect: 'write',
  extension: true,
  repeatable: true,
  problems: ['notFound', 'memberNotPending'],
  activity: {
    resourceType: 'communityMember',
    resourceId: (_input, member) => member.memberId,
    summary: () => 'approved',
  },
  input: v.object({
    communityId: uuid('The community id.'),
    memberId: uuid('The member id.'),
  }),
  output: memberSchema,
  async handler(ctx, input) {
    const move = await moveMember(ctx, input, (member, now) => {
      if (member.status === 'active') return null;
      if (member.status === 'left')
        throw problem(
          'memberNotPending',
          'This person is no longer a member or waiting: they left or were declined.',
        );
      return { status: 'active', approved_utc: now };
    });
    // They become a member now (member.joined says so), not when they asked to join.
    if (move.before.status === 'pending')
      await memberJoined.emit(ctx, { community: move.community, member: move.after });
    return movedMember(ctx, move);
  },
});
