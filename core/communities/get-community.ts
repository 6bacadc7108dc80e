import * as v from 'valibot';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { communitySchema, communityView, loadCommunity } from './community-view';

export const getCommunity = defineOperation({
  name: 'getCommunity',
  title: 'Get a community',
  description:
    "Returns one community's profile: address, place, languages, join policy, status. Needs communities:read.",
  scope: 'communities:read',
  effect: 'read',
  problems: ['notFound'],
  etag: true,
  input: v.object({ communityId: uuid('The community id.') }),
  output: communitySchema,
  async handler(ctx, input) {
    return communityView(ctx, await loadCommunity(ctx, input.communityId));
  },
});
