// The event an operation is about: found in the caller's workspace (another workspace's id answers
// 404 as if it did not exist), with the rules of its modules and of online events applied by
// invoke from the operation's declaration. Loaded once per call: handlers get the same row.

import { eventColumns } from '../../../db/columns';
import type { Db } from '../../../db/connect';
import { changingRow, referencedRow } from '../../../db/dialect';
import { violatedReference } from '../../../db/errors';
import { type Placeholders, prepare } from '../../../db/prepared';
import { prepareTogether, type TogetherRead } from '../../../db/reads-together';
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

const eventQuery = (db: Db, eventId: string, workspaceId: string) =>
  db
    .selectFrom('events')
    .select(eventColumns)
    .where('id', '=', eventId)
    .where('workspace_id', '=', workspaceId);

const eventById = prepare<{ eventId: string; workspaceId: string }, EventRow>((db, p) =>
  eventQuery(db, p.eventId, p.workspaceId),
);

/**
 * The same read, holding the event as a row the write refers to (FOR KEY SHARE on PostgreSQL; the
 * lock its rows' foreign keys take anyway, now from the start). A write locks rows of the event (a
 * ticket type whose places it takes, a sponsor it captures a lead for) and then inserts rows
 * referring to the event; a draft event's removal locks the event, then its rows as they cascade.
 * Without the event first the two met in a circle on PostgreSQL.
 */
const heldEventById = prepare<{ eventId: string; workspaceId: string }, EventRow>((db, p) =>
  referencedRow(db, eventQuery(db, p.eventId, p.workspaceId)),
);

export async function loadEvent(ctx: Ctx, eventId: string): Promise<EventRow> {
  const known = ctx.loadedEvents?.get(eventId);
  if (known) return known;
  return keepEvent(
    ctx,
    eventId,
    await eventById.first(ctx.db, { eventId, workspaceId: ctx.actor.workspaceId }),
  );
}

/**
 * The event read again and locked on PostgreSQL (db/dialect.ts changingRow), for a change of its
 * row checked against its other columns (a start against the end): another change of the event waits,
 * so the check sees the row the update writes over. Rows written at the event meanwhile do not wait.
 */
export async function loadEventForChange(ctx: Ctx, eventId: string): Promise<EventRow> {
  changingOwnEvent(ctx, eventId);
  const query = eventQuery(ctx.db, eventId, ctx.actor.workspaceId);
  return keepEvent(ctx, eventId, await changingRow(ctx.db, query).executeTakeFirst());
}

/**
 * A write about to change or lock its event's own row: it must not hold the event already (held
 * first, then locked for a change, two such writes at once would each wait for the other's hold).
 * An operation doing this declares changesEvent; one that does not is a bug the tests meet.
 */
export function changingOwnEvent(ctx: Ctx, eventId: string): void {
  if (ctx.heldEvent === eventId)
    throw new Error('This operation changes its event: it must declare changesEvent (operation.ts).');
}

/** The problem of an event that is not in the caller's workspace (or no longer is). */
export function eventNotFound(eventId: string) {
  return problem('eventNotFound', `No event ${eventId} in this workspace.`);
}

function keepEvent(ctx: Ctx, eventId: string, row: EventRow | undefined): EventRow {
  if (!row) throw eventNotFound(eventId);
  ctx.loadedEvents?.set(eventId, row);
  return row;
}

/**
 * What a write that failed answers when it wrote a row referring to its event (or to a row of it)
 * while a removal of the draft event committed: on PostgreSQL the removal may end between the call's
 * reads and its insert, whose foreign key then finds nothing. Once the event is not there the call
 * answers as it would a moment later, eventNotFound; any other error stays as it was.
 */
export async function eventRemovedMeanwhile(ctx: Ctx, input: unknown, error: unknown): Promise<unknown> {
  const eventId = (input as { eventId?: unknown } | undefined)?.eventId;
  if (typeof eventId !== 'string' || !violatedReference(error)) return error;
  const there = await eventById.first(ctx.db, { eventId, workspaceId: ctx.actor.workspaceId });
  return there ? error : eventNotFound(eventId);
}

/**
 * As eventRemovedMeanwhile, then for another row the operation names (its namedRowGone): a scan
 * whose door was removed meanwhile answers noDoor, as it would a moment later.
 */
export async function namedRowRemovedMeanwhile(
  ctx: Ctx,
  operation: AnyOperation,
  input: unknown,
  error: unknown,
): Promise<unknown> {
  const answer = await eventRemovedMeanwhile(ctx, input, error);
  if (answer !== error || !operation.namedRowGone || !violatedReference(error)) return answer;
  return (await operation.namedRowGone(ctx, input as never)) ?? error;
}

/**
 * Reads an operation needs beside its event, prepared to be read with it (an operation's
 * readsWithEvent): the event's read is added, by its id and the caller's workspace.
 */
export function withEvent<A extends Record<string, unknown>, Q extends Record<string, TogetherRead<unknown>>>(
  build: (db: Db, p: Placeholders<A>) => Q,
) {
  return prepareTogether((db, p: Placeholders<A & { eventId: string; workspaceId: string }>) => ({
    ...build(db, p),
    events: { query: eventQuery(db, p.eventId, p.workspaceId) },
  }));
}

/**
 * The event, and the rows the operation declared it reads with it (ctx.readWithEvent). A write that
 * does not change its event holds it (heldEventById). A scan (the reads with its event) does not: its
 * event has tickets, so no removal of it can run.
 */
async function loadEventWith(ctx: Ctx, op: AnyOperation, eventId: string, input: unknown): Promise<EventRow> {
  if (ctx.loadedEvents?.has(eventId)) return loadEvent(ctx, eventId);
  const declared = op.readsWithEvent?.(input as never);
  if (!declared) {
    if (op.effect === 'read' || op.changesEvent) return loadEvent(ctx, eventId);
    const row = await heldEventById.first(ctx.db, { eventId, workspaceId: ctx.actor.workspaceId });
    ctx.heldEvent = eventId;
    return keepEvent(ctx, eventId, row);
  }
  const { reads, args } = declared;
  const rows = await reads.rows(ctx.db, { ...args, eventId, workspaceId: ctx.actor.workspaceId });
  const event = keepEvent(ctx, eventId, rows.events?.[0] as EventRow | undefined);
  ctx.readWithEvent = rows;
  return event;
}

/**
 * Applies what the operation declares about its event: it exists in the workspace, it is not
 * online when the operation is a door feature (spec: "Door features return 409 onlineEvent"),
 * and its module is on.
 */
export async function enforceEventRules(ctx: Ctx, op: AnyOperation, input: unknown): Promise<void> {
  const eventId = (input as { eventId?: unknown }).eventId;
  if (typeof eventId !== 'string') return;
  const event = await loadEventWith(ctx, op, eventId, input);
  if (op.doors && event.online === 1) throw problem('onlineEvent', 'This event is online and has no doors.');
  if (op.module && !modulesOf(event)[op.module]) {
    throw problem('moduleOff', `The organiser switched the ${op.module} module off for this event.`, {
      module: op.module,
    });
  }
}
