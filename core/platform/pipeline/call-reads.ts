// What invoke has read during one call, kept beside the call's context rather than on it: the events
// read by id, so a handler's loadEvent answers the row the rules were checked against without a second
// read, and the event the write holds. Private to the pipeline: a handler receives what invoke read as
// its `loaded` argument (operation.ts), and nothing here is a field of Ctx it could write or read back.
// A context copied with changes ({ ...ctx, db }) is a call of its own and starts with nothing read.
import type { EventRow } from '../../../db/schema';
import type { Ctx } from '../context';

export interface CallReads {
  /** Events read during the call, by id. */
  events: Map<string, EventRow>;
  /** The event this write has held since its first read (load-event.ts), if it holds one. */
  held?: string;
}

const calls = new WeakMap<Ctx, CallReads>();

/** Starts the record of the call `ctx` is the context of (invoke, before the event's rules). */
export function beginCall(ctx: Ctx): CallReads {
  const reads: CallReads = { events: new Map() };
  calls.set(ctx, reads);
  return reads;
}

/** What the call of `ctx` has read so far; undefined outside a call of invoke. */
export function callReads(ctx: Ctx): CallReads | undefined {
  return calls.get(ctx);
}
