import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { communityListItemSchema, communityListItems } from './community-view';

export const listCommunities = defineOperation({
  name: 'listCommunities',
  title: 'List communities',
  description:
    "Lists the workspace's communities (meetup series), drafts too, with member counts and next meetup. Needs communities:read.",
  scope: 'communities:read',
  effect: 'read',
  problems: [],
  input: v.object({ ...cursorFields }),
  output: pageOf(communityListItemSchema),
  async handler(ctx, input) {
    const plan = planPage(ctx, input, {
      list: 'communities',
      filters: { workspaceId: ctx.actor.workspaceId },
    });
    const query = ctx.db
      .selectFrom('communities')
      .selectAll()
      .where('workspace_id', '=', ctx.actor.workspaceId);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('communities')));
    const items = await communityListItems(ctx, rows.slice(0, plan.limit));
    const byId = new Map(items.map((item) => [item.communityId, item]));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => byId.get(row.id)!);
  },
});
