import * as v from 'valibot';
import { toFlag } from '../../db/values';
import { addFields } from '../platform/field-lists';
import { newId } from '../platform/ids';
import { defineOperation } from '../platform/pipeline/operation';
import { madeNow } from '../platform/storage/change-stamp';
import { checkCommunityInput, communityFields, communitySlugTaken } from './community-input';
import { communitySchema, communityView } from './community-view';

export const createCommunity = defineOperation({
  name: 'createCommunity',
  title: 'Create a draft community',
  description:
    'Creates a community (a series of meetups) as a draft; publish it with set_community_status to open its page. Needs communities:write.',
  scope: 'communities:write',
  effect: 'write',
  extension: true,
  idempotent: true,
  problems: ['slugTaken'],
  etag: true,
  activity: {
    resourceType: 'community',
    resourceId: (_input, community) => community.communityId,
    summary: (input) => input.name,
  },
  // The unique index decides, so two communities cannot take one address even at the same moment.
  unique: { 'communities.slug': communitySlugTaken },
  input: v.object(addFields(communityFields, ['slug', 'name', 'timeZone'])),
  output: communitySchema,
  rules: checkCommunityInput,
  async handler(ctx, input) {
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      slug: input.slug,
      name: input.name.trim(),
      summary: input.summary ?? null,
      description: input.description ?? null,
      city: input.city ?? null,
      online: toFlag(input.online ?? false),
      languages: JSON.stringify(input.languages ?? ['en']),
      time_zone: input.timeZone,
      join_policy: input.joinPolicy ?? 'open',
      status: 'draft' as const,
      ...(await madeNow(ctx)),
    };
    await ctx.db.insertInto('communities').values(row).execute();
    return communityView(ctx, row);
  },
});
