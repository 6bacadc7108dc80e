// The event an operation is about: found in the caller's workspace (another workspace's id answers
// 404 as if it did not exist), with the rules of its modules and of online events applied by
// invoke from the operation's declaration. Loaded once per call: handlers get the same row.

import { eventColumns } from '../../../db/columns';
import { prepare } from '../../../db/prepared';
import type { EventRow } from '../../../db/schema';
import { type EventModule, eventModules } from '../../../db/values';
import type { Ctx } from '../context';
import { problem } from '../problems';
import type { AnyOperation } from './operation';

export function modulesOf(row: Pick<EventRow, 'modules'>): Record<EventModule, boolean> {
  const stored = JSON.parse(row.modules) as Partial<Record<EventModule, boolean>>;
  return Object.fromEntries(eventModules.map((m) => [m, stored[m] !== false])) as Record<
    EventModule,
    boolean
  >;
}

const eventById = prepare<{ eventId: string; workspaceId: string }, EventRow>((db, p) =>
  db
    .selectFrom('events')
    .select(eventColumns)
    .where('id', '=', p.eventId)
    .where('workspace_id', '=', p.workspaceId),
);

export async function loadEvent(ctx: Ctx, eventId: string): Promise<EventRow> {
  const known = ctx.loadedEvents?.get(eventId);
  if (known) return known;
  const row = await eventById.first(ctx.db, { eventId, workspaceId: ctx.actor.workspaceId });
  if (!row) throw problem('eventNotFound', `No event ${eventId} in this workspace.`);
  ctx.loadedEvents?.set(eventId, row);
  return row;
}

/**
 * Applies what the operation declares about its event: it exists in the workspace, it is not
 * online when the operation is a door feature (spec: "Door features return 409 onlineEvent"),
 * and its module is on.
 */
export async function enforceEventRules(ctx: Ctx, op: AnyOperation, input: unknown): Promise<void> {
  const eventId = (input as { eventId?: unknown }).eventId;
  if (typeof eventId !== 'string') return;
  const event = await loadEvent(ctx, eventId);
  if (op.doors && event.online === 1) throw problem('onlineEvent', 'This event is online and has no doors.');
  if (op.module && !modulesOf(event)[op.module]) {
    throw problem('moduleOff', `The organiser switched the ${op.module} module off for this event.`, {
      module: op.module,
    });
  }
}
