// `tessera import`: reads an import file, checks it whole (the format, then every reference and
// rule), and writes it in one transaction with the outbox messages of what it created and changed:
// all of it one operator operation, run through invoke in one write of the write queue.
// A file with any problem imports nothing and answers every problem with its path.
import * as v from 'valibot';
import { invokeAsOperator } from '../admin';
import type { Ctx } from '../platform/context';
import { decodeUtf8 } from '../platform/faithful-text';
import { defineOperation } from '../platform/pipeline/operation';
import { oneLine } from '../platform/schemas';
import { recount } from './counts';
import { refuseSecondMemberships } from './member-emails';
import { emitImportMessages } from './messages';
import type { ImportIssue } from './plan';
import { planFile } from './plan-file';
import { type ImportSource, readImportFile } from './read-file';
import { ImportRefused, type WriteReport, writePlan } from './write';

export { ImportRefused };

export interface ImportResult {
  workspaceId: string;
  /** True when nothing was kept (--dry-run): the counts say what an import would do. */
  dryRun: boolean;
  communities: number;
  events: number;
  /** Rows added, by table. */
  created: Record<string, number>;
  /** Rows changed to match the file, by table. */
  updated: Record<string, number>;
  /** Rows the file no longer has, by table (a crew member taken off a shift, a click): only where the file holds a whole set. */
  removed: Record<string, number>;
  /** Rows already as the file has them. */
  unchanged: number;
  /** Rows left erased because their person erased their data. */
  keptErased: number;
  /** Outbox messages recorded (webhooks deliver them). */
  messages: number;
}

/** A dry run goes all the way and is then rolled back. */
class DryRunDone extends Error {
  constructor(readonly result: ImportResult) {
    super('dry run');
  }
}

export const importFileOperation = defineOperation({
  name: 'import',
  title: 'Import a file',
  description:
    'Loads events and everything under them (and communities) from an import file (tessera import): checks it whole (the format, then every reference and rule) and writes it with the outbox messages of what it created and changed, all in the one transaction of this write. A file with any problem imports nothing and answers every problem with its path (ImportRefused). A dry run goes all the way and is then rolled back.',
  operator: true,
  scope: 'any',
  effect: 'write',
  activity: {
    resourceType: 'workspace',
    resourceId: (_input, _result, ctx) => ctx.actor.workspaceId,
    summary: (_input, result) =>
      `${result.events} event(s), ${result.communities} community(ies): ${sum(result.created)} row(s) added, ${sum(result.updated)} changed, ${result.unchanged} unchanged`,
  },
  problems: [],
  input: v.object({
    file: v.pipe(
      v.union([v.object({ path: v.pipe(v.string(), oneLine) }), v.object({ text: v.string() })]),
      v.description('The import file: its path (read in chunks), or its text (UTF-8 already decoded).'),
    ),
    dryRun: v.pipe(v.boolean(), v.description('Check and count, keeping nothing.')),
  }),
  // Published nowhere (no route or tool): the type is the contract, checked by the compiler.
  output: v.custom<ImportResult>(() => true),
  async handler(ctx, { file: source, dryRun }) {
    const now = ctx.clock.now().toISOString();
    const { file, orders } = await readImportFile(source);
    const plan = planFile(file, ctx.actor.workspaceId, now, orders);
    const sizes = { communities: file.communities.length, events: file.events.length };
    await refuseTakenSlugs(
      ctx,
      plan.rows('events').map((p) => ({ id: String(p.row.id), slug: String(p.row.slug), path: p.path })),
      'events',
      plan.issues,
    );
    await refuseTakenSlugs(
      ctx,
      plan.rows('communities').map((p) => ({ id: String(p.row.id), slug: String(p.row.slug), path: p.path })),
      'communities',
      plan.issues,
    );
    await refuseSecondMemberships(ctx, plan, plan.issues);
    if (plan.issues.length > 0) throw new ImportRefused(plan.issues);
    plan.releaseChecks();
    const report = await writePlan(ctx.db, plan, now);
    const eventIds = plan.rows('events').map((p) => String(p.row.id));
    const issues = await recount(ctx.db, plan, eventIds, now);
    if (issues.length > 0) throw new ImportRefused(issues);
    const messages = await emitImportMessages(ctx, report);
    const result = summary(ctx.actor.workspaceId, sizes, report, messages, dryRun);
    if (dryRun) throw new DryRunDone(result);
    return result;
  },
});

/**
 * Imports a file as the operator, through invoke: read from disk in chunks (its path), or its bytes,
 * or its text.
 */
export async function importFile(
  operator: Ctx,
  source: string | Uint8Array | { path: string },
  options: { dryRun?: boolean } = {},
): Promise<ImportResult> {
  let file: ImportSource;
  if (typeof source === 'string') file = { text: source };
  else if (source instanceof Uint8Array) {
    const text = decodeUtf8(source);
    if (text === null) throw new ImportRefused([{ path: '', message: 'Not UTF-8: save the file as UTF-8.' }]);
    file = { text };
  } else file = source;
  try {
    return await invokeAsOperator(importFileOperation, operator, {
      file,
      dryRun: options.dryRun === true,
    });
  } catch (error) {
    if (error instanceof DryRunDone) return error.result;
    throw error;
  }
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** Slugs are unique across the deployment (they are public addresses): another row's refuses the file. */
async function refuseTakenSlugs(
  ctx: Ctx,
  planned: { id: string; slug: string; path: string }[],
  table: 'events' | 'communities',
  issues: ImportIssue[],
): Promise<void> {
  for (let i = 0; i < planned.length; i += 500) {
    const some = planned.slice(i, i + 500);
    const taken = await ctx.db
      .selectFrom(table)
      .select(['id', 'slug'])
      .where(
        'slug',
        'in',
        some.map((p) => p.slug),
      )
      .execute();
    for (const row of taken) {
      const mine = some.find((p) => p.slug === row.slug)!;
      if (row.id !== mine.id)
        issues.push({
          path: `${mine.path}.slug`,
          message: `The slug "${row.slug}" is taken by another ${table === 'events' ? 'event' : 'community'}.`,
        });
    }
  }
}

function summary(
  workspaceId: string,
  sizes: { communities: number; events: number },
  report: WriteReport,
  messages: number,
  dryRun: boolean,
): ImportResult {
  const created: Record<string, number> = {};
  const updated: Record<string, number> = {};
  const removed: Record<string, number> = {};
  let unchanged = 0;
  let keptErased = 0;
  for (const [table, changes] of report.tables) {
    if (changes.created.length > 0) created[table] = changes.created.length;
    if (changes.updated.length > 0) updated[table] = changes.updated.length;
    unchanged += changes.unchanged;
    keptErased += changes.keptErased;
  }
  for (const [table, changes] of report.sets) {
    if (changes.added.length > 0) created[table] = changes.added.length;
    if (changes.removed.length > 0) removed[table] = changes.removed.length;
  }
  return {
    workspaceId,
    dryRun,
    communities: sizes.communities,
    events: sizes.events,
    created,
    updated,
    removed,
    unchanged,
    keptErased,
    messages,
  };
}
