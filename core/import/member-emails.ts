// One membership that is not over per community and email address (a unique index holds it): a
// file refused when two of its members share an address in one community, or when one's address
// is already another membership's there (someone who joined through the API, say). Members who
// left do not count: a person may leave and join again.
import type { Ctx } from '../platform/context';
import type { ImportIssue, ImportPlan } from './plan';

export async function refuseSecondMemberships(
  ctx: Ctx,
  plan: ImportPlan,
  issues: ImportIssue[],
): Promise<void> {
  const planned = plan
    .rows('community_members')
    .filter((p) => p.row.status !== 'left' && typeof p.row.email === 'string')
    .map((p) => ({
      id: String(p.row.id),
      community: String(p.row.community_id),
      email: String(p.row.email),
      path: p.path,
    }));
  const first = new Map<string, string>();
  for (const p of planned) {
    const key = `${p.community} ${p.email}`;
    const earlier = first.get(key);
    if (earlier)
      issues.push({ path: `${p.path}.email`, message: `${earlier} has this email address already.` });
    else first.set(key, p.path);
  }
  const ids = new Set(plan.rows('community_members').map((p) => String(p.row.id)));
  for (let i = 0; i < planned.length; i += 500) {
    const some = planned.slice(i, i + 500);
    const held = await ctx.db
      .selectFrom('community_members')
      .select(['id', 'community_id', 'email'])
      .where('workspace_id', '=', ctx.actor.workspaceId)
      .where('status', '<>', 'left')
      .where(
        'email',
        'in',
        some.map((p) => p.email),
      )
      .execute();
    for (const row of held) {
      if (ids.has(row.id)) continue;
      const mine = some.find((p) => p.community === row.community_id && p.email === row.email);
      if (mine)
        issues.push({
          path: `${mine.path}.email`,
          message: `Member ${row.id} of this community already has this email address.`,
        });
    }
  }
}
