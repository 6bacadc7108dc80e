// The event an operation is about: found in the caller's workspace (another workspace's id answers
// 404 as if it did not exist), with the rules of its modules and of online events applied by
// invoke from the operation's declaration. Loaded once per call: handlers get the same row.

import type * as v from 'valibot';
import { eventColumns } from '../../../db/columns';
import type { Db } from '../../../db/connect';
import { changingRow, referencedRow } from '../../../db/dialect';
import { violatedReference } from '../../../db/errors';
import { type Placeholders, prepare } from '../../../db/prepared';
import { prepareTogether, type RowsOf, type TogetherRead } from '../../../db/reads-together';
import type { EventRow } from '../../../db/schema';
import { type EventModule, eventModules } from '../../../db/values';
import type { Ctx } from '../context';
import { problem } from '../problems';
import { callReads } from './call-reads';
import type { EventPlace, EventReads, InputSchema, Operation, ReadsWithEvent } from './operation';

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
  const known = callReads(ctx)?.events.get(eventId);
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
  if (callReads(ctx)?.held === eventId)
    throw new Error('This operation changes its event: it must declare changesEvent (operation.ts).');
}

/** The problem of an event that is not in the caller's workspace (or no longer is). */
export function eventNotFound(eventId: string) {
  return problem('eventNotFound', `No event ${eventId} in this workspace.`);
}

function keepEvent(ctx: Ctx, eventId: string, row: EventRow | undefined): EventRow {
  if (!row) throw eventNotFound(eventId);
  callReads(ctx)?.events.set(eventId, row);
  return row;
}

/**
 * What a write that failed answers when it wrote a row referring to its event (or to a row of it)
 * while a removal of the draft event committed: on PostgreSQL the removal may end between the call's
 * reads and its insert, whose foreign key then finds nothing. Once the event is not there the call
 * answers as it would a moment later, eventNotFound; any other error stays as it was.
 */
export async function eventRemovedMeanwhile(ctx: Ctx, input: unknown, error: unknown): Promise<unknown> {
  const eventId = eventIdOf(input);
  if (eventId === undefined || !violatedReference(error)) return error;
  const there = await eventById.first(ctx.db, { eventId, workspaceId: ctx.actor.workspaceId });
  return there ? error : eventNotFound(eventId);
}

/**
 * As eventRemovedMeanwhile, then for another row the operation names (its namedRowGone): a scan
 * whose door was removed meanwhile answers noDoor, as it would a moment later.
 */
export async function namedRowRemovedMeanwhile<
  I extends InputSchema,
  O extends v.GenericSchema,
  W extends EventReads,
  D,
>(ctx: Ctx, operation: Operation<I, O, W, D>, input: v.InferOutput<I>, error: unknown): Promise<unknown> {
  const answer = await eventRemovedMeanwhile(ctx, input, error);
  if (answer !== error || !operation.namedRowGone || !violatedReference(error)) return answer;
  return (await operation.namedRowGone(ctx, input)) ?? error;
}

/** The placeholders of reads beside an event: theirs, and the event's place. */
type AtEvent<A> = Placeholders<A & EventPlace>;

/**
 * Reads an operation needs beside its event, prepared to be read with it (an operation's
 * readsWithEvent): the event's read is added, by its id and the caller's workspace. `for` gives the
 * reads with their own placeholders' values, to declare.
 */
export function withEvent<A extends Record<string, unknown>, Q extends Record<string, TogetherRead<unknown>>>(
  build: (db: Db, p: AtEvent<A>) => Q,
) {
  const together = prepareTogether(build, {
    beside: (db, p: AtEvent<A>) => ({ events: { query: eventQuery(db, p.eventId, p.workspaceId) } }),
  });
  return {
    rows: together.rows,
    for: (args: A): ReadsWithEvent<RowsOf<Q>> => ({
      rows: (db, place) => together.rows(db, { ...args, ...place }),
    }),
  };
}

/** The event, and the rows the operation declared it reads with it, as invoke read them. */
export interface EventReadsDone {
  event: EventRow | undefined;
  rows: unknown;
}

/**
 * The event, and the rows the operation declared it reads with it. A write that does not change its
 * event holds it (heldEventById). A scan (the reads with its event) does not: its event has tickets,
 * so no removal of it can run.
 */
async function loadEventWith<I extends InputSchema, O extends v.GenericSchema, W extends EventReads, D>(
  ctx: Ctx,
  op: Operation<I, O, W, D>,
  eventId: string,
  input: v.InferOutput<I>,
): Promise<EventReadsDone & { event: EventRow }> {
  const declared = op.readsWithEvent?.(input);
  if (!declared) {
    if (op.effect === 'read' || op.changesEvent)
      return { event: await loadEvent(ctx, eventId), rows: undefined };
    const row = await heldEventById.first(ctx.db, { eventId, workspaceId: ctx.actor.workspaceId });
    const reads = callReads(ctx);
    if (reads) reads.held = eventId;
    return { event: keepEvent(ctx, eventId, row), rows: undefined };
  }
  const rows = await declared.rows(ctx.db, { eventId, workspaceId: ctx.actor.workspaceId });
  return { event: keepEvent(ctx, eventId, rows.events[0]), rows };
}

/**
 * Applies what the operation declares about its event: it exists in the workspace, it is not
 * online when the operation is a door feature (spec: "Door features return 409 onlineEvent"),
 * and its module is on. Answers the event and the rows read with it, for the handler.
 */
export async function enforceEventRules<
  I extends InputSchema,
  O extends v.GenericSchema,
  W extends EventReads,
  D,
>(ctx: Ctx, op: Operation<I, O, W, D>, input: v.InferOutput<I>): Promise<EventReadsDone> {
  const eventId = eventIdOf(input);
  if (eventId === undefined) return { event: undefined, rows: undefined };
  const done = await loadEventWith(ctx, op, eventId, input);
  const event = done.event;
  if (op.doors && event.online === 1) throw problem('onlineEvent', 'This event is online and has no doors.');
  if (op.module && !modulesOf(event)[op.module]) {
    throw problem('moduleOff', `The organiser switched the ${op.module} module off for this event.`, {
      module: op.module,
    });
  }
  return done;
}

/** The event an input names (its eventId), if it names one. */
export function eventIdOf(input: unknown): string | undefined {
  if (input === null || typeof input !== 'object' || !('eventId' in input)) return undefined;
  return typeof input.eventId === 'string' ? input.eventId : undefined;
}
