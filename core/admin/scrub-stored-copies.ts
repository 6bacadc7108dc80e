// Every stored copy of the rows an erasure nulled: outbox messages (of every type), answers kept for
// idempotent retries, and the summaries of activity-log entries about those rows.
import { sql } from 'kysely';
import type { Ctx } from '../platform/context';
import { scrubErased } from '../platform/pipeline/personal-data';
import { personalResources } from './personal-resources';

/**
 * Every stored copy of the erased rows: outbox messages (of every type), answers kept for
 * idempotent retries, and the summaries of activity-log entries about those rows.
 */
export async function scrubStoredCopies(ctx: Ctx, erasedIds: Set<string>): Promise<void> {
  if (erasedIds.size === 0) return;
  const ids = [...erasedIds];
  const workspaceId = ctx.actor.workspaceId;
  for (let i = 0; i < ids.length; i += 50) {
    const some = ids.slice(i, i + 50);
    const mentions = (column: string) =>
      sql<boolean>`(${sql.join(
        some.map((id) => sql`${sql.ref(column)} like ${`%${id}%`}`),
        sql` or `,
      )})`;
    const outbox = await ctx.db
      .selectFrom('outbox')
      .select(['id', 'payload as document'])
      .where('workspace_id', '=', workspaceId)
      .where(mentions('payload'))
      .execute();
    await scrubEach(outbox, erasedIds, (m, payload) =>
      ctx.db.updateTable('outbox').set({ payload }).where('id', '=', m.id).execute(),
    );
    const answers = await ctx.db
      .selectFrom('idempotency_records')
      .select(['api_key_id', 'idempotency_key', 'response_body as document'])
      .where('workspace_id', '=', workspaceId)
      .where(mentions('response_body'))
      .execute();
    await scrubEach(answers, erasedIds, (a, response_body) =>
      ctx.db
        .updateTable('idempotency_records')
        .set({ response_body })
        .where('api_key_id', '=', a.api_key_id)
        .where('idempotency_key', '=', a.idempotency_key)
        .execute(),
    );
    await ctx.db
      .updateTable('workspace_activity')
      .set({ summary: null })
      .where('workspace_id', '=', workspaceId)
      .where('resource_id', 'in', some)
      .execute();
  }
}

/** Rewrites each stored JSON document that held an erased person, without them. */
async function scrubEach<R extends { document: string }>(
  rows: R[],
  erasedIds: Set<string>,
  save: (row: R, scrubbed: string) => Promise<unknown>,
): Promise<void> {
  for (const row of rows) {
    const document = JSON.parse(row.document) as unknown;
    if (scrubErased(document, personalResources, erasedIds)) await save(row, JSON.stringify(document));
  }
}
