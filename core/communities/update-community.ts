import * as v from 'valibot';
import { toFlag } from '../../db/values';
import { changeFields } from '../platform/field-lists';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateWorkspaceRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { checkCommunityInput, communityFields, communitySlugTaken } from './community-input';
import { communitySchema, communityView, loadCommunity } from './community-view';

export const updateCommunity = defineOperation({
  name: 'updateCommunity',
  title: 'Change a community',
  description:
    "Changes a community's profile or join policy; send only what changes. To publish use set_community_status. Needs communities:write.",
  scope: 'communities:write',
  effect: 'write',
  extension: true,
  repeatable: true,
  problems: ['notFound', 'slugTaken'],
  etag: true,
  ifMatch: {
    hold: heldRow('communities', (input) => input.communityId),
    current: async (ctx, input) => communityView(ctx, await loadCommunity(ctx, input.communityId)),
  },
  activity: { resourceType: 'community', resourceId: (_input, community) => community.communityId },
  unique: { 'communities.slug': communitySlugTaken },
  input: v.object({
    communityId: uuid('The community id.'),
    ...changeFields(communityFields),
  }),
  output: communitySchema,
  rules: checkCommunityInput,
  async handler(ctx, input) {
    const current = await loadCommunity(ctx, input.communityId);
    // Members waiting for approval stay waiting when the policy opens: the organiser decides on each.
    const changes = {
      slug: input.slug ?? current.slug,
      name: input.name?.trim() ?? current.name,
      summary: input.summary === undefined ? current.summary : input.summary,
      description: input.description === undefined ? current.description : input.description,
      city: input.city === undefined ? current.city : input.city,
      online: input.online === undefined ? current.online : toFlag(input.online),
      languages: input.languages ? JSON.stringify(input.languages) : current.languages,
      time_zone: input.timeZone ?? current.time_zone,
      join_policy: input.joinPolicy ?? current.join_policy,
      ...(await changedNow(ctx)),
    };
    await updateWorkspaceRow(ctx, 'communities', current.id, 'community', changes);
    return communityView(ctx, { ...current, ...changes });
  },
});
