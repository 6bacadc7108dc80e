// The workspace activity log: every change, under the name of the key that made it. Written in
// the change's own transaction (one insert there costs no extra commit). invoke writes an
// operation's entry from its declaration; logChange stays for callers outside invoke.

import type * as v from 'valibot';
import type { Ctx } from '../context';
import type { EventReads, InputSchema, Operation } from './operation';

export interface ChangeEntry {
  /** The operation's name, e.g. createEvent. */
  action: string;
  resourceType: string;
  resourceId: string;
  summary?: string;
}

export async function logChange(ctx: Ctx, entry: ChangeEntry): Promise<void> {
  await ctx.db
    .insertInto('workspace_activity')
    .values({
      workspace_id: ctx.actor.workspaceId,
      at_utc: ctx.clock.now().toISOString(),
      api_key_id: ctx.actor.keyId || null,
      actor_name: ctx.actor.keyName,
      action: entry.action,
      resource_type: entry.resourceType,
      resource_id: entry.resourceId,
      summary: entry.summary ?? null,
    })
    .execute();
}

/** The operation's declared entry for this call, unless it declares none (a write that changed nothing logs none). */
export async function logOperation<I extends InputSchema, O extends v.GenericSchema, W extends EventReads, D>(
  ctx: Ctx,
  operation: Operation<I, O, W, D>,
  input: v.InferOutput<I>,
  output: D,
): Promise<void> {
  const declared = operation.activity;
  if (!declared || 'none' in declared) return;
  await logChange(ctx, {
    action: declared.action ?? operation.name,
    resourceType: declared.resourceType,
    resourceId: declared.resourceId(input, output, ctx),
    summary: declared.summary?.(input, output),
  });
}
