import * as v from 'valibot';
import { memberStatuses } from '../../db/values';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { loadCommunity } from './community-view';
import { memberSchema, memberView } from './member-view';

export const listCommunityMembers = defineOperation({
  name: 'listCommunityMembers',
  title: 'List community members',
  description:
    "Lists a community's members; filter by status. Name and email need people:read. Needs communities:read.",
  scope: 'communities:read',
  effect: 'read',
  problems: ['notFound'],
  input: v.object({
    communityId: uuid('The community id.'),
    status: v.optional(v.pipe(v.picklist(memberStatuses), v.description('active, pending or left.'))),
    ...cursorFields,
  }),
  output: pageOf(memberSchema),
  async handler(ctx, input) {
    const community = await loadCommunity(ctx, input.communityId);
    const plan = planPage(ctx, input, {
      list: 'communityMembers',
      filters: { communityId: community.id, status: input.status },
    });
    let query = ctx.db.selectFrom('community_members').selectAll().where('community_id', '=', community.id);
    if (input.status) query = query.where('status', '=', input.status);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('community_members')));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => memberView(ctx.actor, row));
  },
});
