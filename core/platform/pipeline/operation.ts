// An operation is a plain object: the one declaration both the REST route table and the MCP
// tool table point at, and the one invoke enforces. Handlers return data, never HTTP or MCP shapes.
import type * as v from 'valibot';
import type { Db } from '../../../db/connect';
import type { EventRow } from '../../../db/schema';
import type { EventModule } from '../../../db/values';
import type { Ctx } from '../context';
import type { Problem, ProblemCode } from '../problems';
import type { Scope } from '../scopes';
import type { Services } from '../services';
import type { DocumentFile } from './document-file';
import type { RowLock } from './load-event-row';
import type { FileOutput, TableFile } from './table-file';
import type { FieldRules } from './validation';

export type Effect = 'read' | 'write' | 'destructive';

// biome-ignore lint/suspicious/noExplicitAny: operations of every input shape share one table.
export type InputSchema = v.ObjectSchema<v.ObjectEntries, any>;

export interface IfMatch<I> {
  /**
   * What the tag names, held on PostgreSQL before `current` reads it and until the write commits
   * (tagged-row.ts): the row, `heldRow(table, idOf)`, or the write's own locks in their order.
   */
  hold(ctx: Ctx, input: I, lock: RowLock): Promise<unknown>;
  /** The resource's view as the operation answers it: its entity tag is what If-Match must name. */
  current(ctx: Ctx, input: I): Promise<unknown>;
}

/** The activity log entry of a change, from the call's input and answer. */
export interface Activity<I, O> {
  resourceType: string;
  /** The resource changed; ctx for those named by the caller (the workspace an import fills). */
  resourceId(input: I, output: O, ctx: Ctx): string;
  summary?(input: I, output: O): string;
  /** The action recorded, where the log has always named it otherwise than the operation (subscribe). */
  action?: string;
}

export interface NoActivity {
  /** Why the write leaves no entry. */
  none: string;
}

/** A problem code, or the code with a detail naming what collided. */
export type UniqueProblem<I> = ProblemCode | { code: ProblemCode; detail(input: I): string };

/**
 * An operation: I its input's schema, O its answer's, W what its readsWithEvent declares (none:
 * undefined), D what its handler answers (O's output; a TableFile for a file, defineFileOperation).
 */
export interface Operation<
  I extends InputSchema = InputSchema,
  O extends v.GenericSchema = v.GenericSchema,
  W extends EventReads = undefined,
  D = v.InferOutput<O>,
> {
  /** camelCase; the MCP tool name is its snake_case form. */
  name: string;
  /** A few words, for tables of contents. */
  title: string;
  /** Written for a person and an assistant alike: what it does, what it needs, what it answers. */
  description: string;
  /** The scope it needs; 'any' for calls every working key may make. */
  scope: Scope | 'any';
  /**
   * Keys made before a date needed another scope for this call, and keep needing only that one
   * (Versioning item 7: subscribing through /hooks took webhooks:read then).
   */
  olderKeys?: { madeBefore: string; scope: Scope };
  effect: Effect;
  /** A write that, sent again with the same input, changes nothing more (an update, a delete): MCP's idempotentHint. */
  repeatable?: boolean;
  /** Accepts an idempotency key (REST header Idempotency-Key, MCP argument idempotencyKey): a retry gets the first answer. */
  idempotent?: boolean;
  /**
   * The event module it belongs to (its input has an eventId): invoke answers 409 moduleOff when
   * the organiser switched the module off, before the handler runs.
   */
  module?: EventModule;
  /** A door feature: online events have none, so invoke answers 409 onlineEvent (before moduleOff). */
  doors?: boolean;
  /**
   * The write changes or removes its event's own row (its details, status, settings kept on it).
   * Every other write with an eventId holds its event from its first read (load-event.ts), so the
   * rows of the event it locks next come after the event, as a removal of the event takes them.
   */
  changesEvent?: boolean;
  /**
   * Reads the handler needs beside its event, which invoke answers in the event's own read (one
   * round trip on PostgreSQL: load-event.ts withEvent) and hands to the handler as `loaded.rows`.
   */
  readsWithEvent?(input: v.InferOutput<I>): W;
  /**
   * The call is about people by name or address: without people:read invoke answers 403
   * peopleScope, with this sentence (after the event's rules).
   */
  aboutPeople?: string;
  /**
   * The problem codes the operation's own rules answer. Those every call can meet (authentication,
   * validation, eventNotFound, moduleOff, idempotency, ...) are derived: see problemsOf.
   */
  problems: readonly ProblemCode[];
  /**
   * The answer is one conditional resource's representation, so it carries that resource's entity
   * tag (REST ETag, MCP result _meta.etag): the tag a GET right after gives, to send as If-Match on
   * the next change without reading again. On a read, If-None-Match naming it answers 304.
   */
  etag?: boolean;
  /**
   * Takes the entity tag read (REST If-Match, MCP argument ifMatch): when one is sent, invoke loads
   * the resource's current view with `current` (in the write's transaction, before the handler)
   * and answers 412 preconditionFailed when the tag no longer names it.
   */
  ifMatch?: IfMatch<v.InferOutput<I>>;
  /**
   * The activity log entry a change writes, after the handler in its transaction, under the
   * operation's name; `{ none }` says why a write leaves none. Every write declares one.
   */
  activity?: Activity<v.InferOutput<I>, D> | NoActivity;
  /**
   * Unique keys of the database the write may collide with, by their columns as violatedUnique
   * names them ('events.slug'), and the declared problem invoke answers for a collision.
   */
  unique?: Record<string, UniqueProblem<v.InferOutput<I>>>;
  /**
   * Field rules valibot cannot express (a real time zone, an end after its start, a venue for an
   * event in person), checked by invoke together with the schema on the input as sent, so a
   * refused request lists every field problem at once. Values may be of any type there.
   */
  rules?: FieldRules;
  /**
   * Work that must follow the committed change, outside its transaction (an erasure makes the
   * store drop the bytes the erased rows held). Not run when the change is refused or replayed.
   */
  afterCommit?(services: Services): Promise<void>;
  /**
   * Slow work a write's checks need, done before its transaction so no other write waits on it (a
   * receiver's name looked up, the answer kept for the check inside). Changes nothing.
   */
  before?(ctx: Ctx, input: v.InferOutput<I>): Promise<void>;
  /**
   * Work after the commit that the answer waits for and reports (a test message's first attempt, a
   * card order's Checkout session): given the committed answer, gives the answer sent. Not run when
   * the change is refused. For an idempotent operation it runs on the kept answer of each retry too,
   * so it must answer from what was committed (a card order's session is made once and kept).
   */
  settle?(ctx: Ctx, answer: D): Promise<D>;
  /**
   * For a write whose insert met a foreign key: on PostgreSQL a row it names (beyond its event, which
   * invoke checks for every write) may have been removed between its read of it and its write. Read
   * after the transaction ended: the problem the call answers had it come after that removal, or
   * undefined while the row is there (the error stands).
   */
  namedRowGone?(ctx: Ctx, input: v.InferOutput<I>): Promise<Problem | undefined>;
  /**
   * Takes ticket codes (a scan, a visitor's badge): invoke refuses a caller paused for guessing codes
   * and counts the codes that named no ticket (ctx.ticketMisses) against its one guess limit
   * (core/platform/ticket-code-guesses.ts).
   */
  ticketCodes?: boolean;
  /** Reaches outside this service (sends a message to a receiver): the MCP openWorldHint. */
  openWorld?: boolean;
  /**
   * Not in the API's published contract: an extension this service adds in the contract's style
   * (marked x-tessera-extension in the OpenAPI document).
   */
  extension?: boolean;
  /**
   * Run by the operator at the command line (src/cli.ts), never by a key: in neither the REST route
   * table nor the MCP tool table, and invoke refuses it for any other caller. This flag is its
   * permission, so its scope is 'any'.
   */
  operator?: boolean;
  /**
   * The answer is a file of rows in one of these formats (an export): the handler answers a
   * TableFile (core/platform/pipeline/table-file.ts), which REST sends as an attachment of the
   * format's media type, the CLI writes, and MCP previews; `output` is the JSON format's shape.
   */
  file?: FileOutput;
  /** Input fields with their docs in v.description; no transforms, so JSON Schema conversion is exact. */
  input: I;
  /** The answer's shape, for OpenAPI and MCP output schemas. */
  output: O;
  /**
   * The use case. `loaded` is what invoke read for it: the event its rules were checked against,
   * and the rows readsWithEvent declared. A write that found nothing to change answers
   * `unchanged(answer)` (change-log.ts), and leaves no activity entry.
   */
  handler(ctx: Ctx, input: v.InferOutput<I>, loaded: Loaded<I, W>): Promise<D | Unchanged<D>>;
}

/** Where reads beside an event read it: the event's id and the caller's workspace. */
export interface EventPlace {
  eventId: string;
  workspaceId: string;
}

/**
 * Reads prepared beside the event's (load-event.ts withEvent), their placeholders' values given:
 * R the rows by read, with the event's own row among them (`events`).
 */
export interface ReadsWithEvent<R> {
  rows(db: Db, place: EventPlace): Promise<R & { events: EventRow[] }>;
}

/** What an operation's readsWithEvent may answer: reads, or none for this input. */
export type EventReads = ReadsWithEvent<unknown> | undefined;

/** The rows reads declared answer; undefined where none were declared for the input. */
export type DeclaredRows<W extends EventReads> = W extends ReadsWithEvent<infer R> ? R : undefined;

/** What invoke read for a handler: its event (when its input names one), and its declared rows. */
export interface Loaded<I extends InputSchema, W extends EventReads> {
  event: v.InferOutput<I> extends { eventId: string } ? EventRow : EventRow | undefined;
  rows: DeclaredRows<W>;
}

/** A write's answer when it found nothing to change (the same status, the same fields). */
export class Unchanged<D> {
  constructor(readonly answer: D) {}
}

/** The answer of a write that found nothing to change: the caller gets `answer`, the log no entry. */
export function unchanged<D>(answer: D): Unchanged<D> {
  return new Unchanged(answer);
}

export type AnyOperation = Operation<InputSchema, v.GenericSchema, EventReads, unknown>;

export function defineOperation<
  I extends InputSchema,
  O extends v.GenericSchema,
  W extends EventReads = undefined,
>(operation: Operation<I, O, W>): Operation<I, O, W> {
  return operation;
}

/** An operation whose answer is a file of rows (`file`): its handler answers the TableFile. */
export function defineFileOperation<I extends InputSchema, O extends v.GenericSchema>(
  operation: Operation<I, O, undefined, TableFile> & { file: FileOutput },
): Operation<I, O, undefined, TableFile> {
  return operation;
}

/** An operation whose answer is one whole file (`file.document`): its handler answers the DocumentFile. */
export function defineDocumentOperation<I extends InputSchema, O extends v.GenericSchema>(
  operation: Operation<I, O, undefined, DocumentFile> & { file: FileOutput & { document: true } },
): Operation<I, O, undefined, DocumentFile> {
  return operation;
}

/** getMe -> get_me */
export function toolName(operation: Pick<AnyOperation, 'name'>): string {
  return operation.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
