import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { holderQuery, holderSchema, holderView } from './holder-view';
import { loadPass } from './load-pass';

export const listPassHolders = defineOperation({
  name: 'listPassHolders',
  title: 'List pass holders',
  description:
    "Lists a pass's holders, newest first, active or ended (and why); filter by status. Names need people:read. Needs attendees:read.",
  scope: 'attendees:read',
  effect: 'read',
  problems: ['notFound'],
  input: v.object({
    passId: uuid('The pass id.'),
    status: v.optional(v.pipe(v.picklist(['active', 'ended']), v.description('active or ended.'))),
    ...cursorFields,
  }),
  output: pageOf(holderSchema),
  async handler(ctx, input) {
    const pass = await loadPass(ctx, input.passId);
    const plan = planPage(ctx, input, {
      list: 'passHolders',
      filters: { passId: pass.id, status: input.status },
      defaultSort: '-created',
    });
    let query = holderQuery(ctx.db).where('pass_holders.pass_id', '=', pass.id);
    if (input.status) query = query.where('pass_holders.status', '=', input.status);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('pass_holders')));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => holderView(ctx.actor, row));
  },
});
