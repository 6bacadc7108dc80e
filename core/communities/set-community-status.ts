import * as v from 'valibot';
import { communityStatuses } from '../../db/values';
import { defineOperation, unchanged } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateWorkspaceRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { communitySchema, communityView, loadCommunity } from './community-view';

export const setCommunityStatus = defineOperation({
  name: 'setCommunityStatus',
  title: 'Publish or unpublish a community',
  description:
    'Publishes a community, opening its public page, or returns it to draft, closing the page; for other changes use update_community. Needs communities:write.',
  scope: 'communities:write',
  effect: 'write',
  extension: true,
  repeatable: true,
  problems: ['notFound'],
  etag: true,
  ifMatch: {
    hold: heldRow('communities', (input) => input.communityId),
    current: async (ctx, input) => communityView(ctx, await loadCommunity(ctx, input.communityId)),
  },
  activity: {
    resourceType: 'community',
    resourceId: (_input, community) => community.communityId,
    summary: (input) => input.status,
  },
  input: v.object({
    communityId: uuid('The community id.'),
    status: v.pipe(v.picklist(communityStatuses), v.description('published or draft.')),
  }),
  output: communitySchema,
  async handler(ctx, input) {
    const current = await loadCommunity(ctx, input.communityId);
    if (current.status === input.status) {
      return unchanged(await communityView(ctx, current));
    }
    const changes = { status: input.status, ...(await changedNow(ctx)) };
    await updateWorkspaceRow(ctx, 'communities', current.id, 'community', changes);
    return communityView(ctx, { ...current, ...changes });
  },
});
