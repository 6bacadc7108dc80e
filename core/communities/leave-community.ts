import * as v from 'valibot';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { memberLeft } from './member-messages';
import { movedMember, moveMember } from './member-status';
import { memberSchema } from './member-view';

export const leaveCommunity = defineOperation({
  name: 'leaveCommunity',
  title: 'End a membership',
  description:
    'Records that a member left a community, or removes them: status left, kept in the member list. Someone still waiting withdraws. Needs communities:write.',
  scope: 'communities:write',
  effect: 'destructive',
  extension: true,
  repeatable: true,
  problems: ['notFound'],
  activity: {
    resourceType: 'communityMember',
    resourceId: (_input, member) => member.memberId,
    summary: () => 'left',
  },
  input: v.object({
    communityId: uuid('The community id.'),
    memberId: uuid('The member id.'),
  }),
  output: memberSchema,
  async handler(ctx, input) {
    const move = await moveMember(ctx, input, (member, now) =>
      member.status === 'left' ? null : { status: 'left', left_utc: now },
    );
    // member.left only for a member: someone who withdraws while waiting never joined.
    if (move.before.status === 'active')
      await memberLeft.emit(ctx, { community: move.community, member: move.after });
    return movedMember(ctx, move);
  },
});
