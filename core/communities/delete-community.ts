import * as v from 'valibot';
import { dependentsOf, refuseWhileUsed } from '../platform/in-use';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { deleteWorkspaceRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { communityView, loadCommunity } from './community-view';

export const deleteCommunity = defineOperation({
  name: 'deleteCommunity',
  title: 'Remove a community',
  description:
    'Removes a community with no events, passes or members (active or waiting), else refused (inUse, naming them); members who left go with it. To hide it, set it to draft. Needs communities:write.',
  scope: 'communities:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  problems: ['notFound', 'inUse'],
  ifMatch: {
    hold: heldRow('communities', (input) => input.communityId),
    current: async (ctx, input) => communityView(ctx, await loadCommunity(ctx, input.communityId)),
  },
  activity: { resourceType: 'community', resourceId: (_input, removed) => removed.communityId },
  input: v.object({ communityId: uuid('The community id.') }),
  output: v.object({ communityId: uuid('The community removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    // Its row held first by invoke (ifMatch.hold, FOR UPDATE): a member joining, an event or a pass moved
    // to it meanwhile holds it as its foreign key does, so this waits and counts them below, not removed
    // unseen.
    const community = await loadCommunity(ctx, input.communityId);
    const ids = async (table: 'events' | 'passes') =>
      (await ctx.db.selectFrom(table).select('id').where('community_id', '=', community.id).execute()).map(
        (r) => r.id,
      );
    const members = await ctx.db
      .selectFrom('community_members')
      .select('id')
      .where('community_id', '=', community.id)
      .where('status', 'in', ['active', 'pending'])
      .execute();
    refuseWhileUsed(
      `The community ${community.name}`,
      [
        dependentsOf('event', await ids('events')),
        dependentsOf('pass', await ids('passes')),
        dependentsOf(
          'member',
          members.map((m) => m.id),
        ),
      ],
      'move its events to another community (or none) and let its members go first, or set it back to draft instead.',
    );
    await deleteWorkspaceRow(ctx, 'communities', community.id, 'community');
    return { communityId: community.id, deleted: true as const };
  },
});
