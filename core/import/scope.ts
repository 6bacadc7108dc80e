// What a section of the import needs while it plans one event's items, and the steps every section
// repeats on them: each item of a list with its path, and a list of references kept as their ids.
import { type ImportPlan, json } from './plan';

export interface EventScope {
  plan: ImportPlan;
  workspaceId: string;
  eventId: string;
  /** The event's key: items of one event are keyed within it. */
  eventKey: string;
  currency: string;
  /** The event's path in the file: events[2]. */
  path: string;
  /** When the import runs: created_utc of new rows, and the time of imported changes. */
  now: string;
}

/** The columns every row of an event's tables starts with. */
export function owned(scope: EventScope, id: string) {
  return { id, workspace_id: scope.workspaceId, event_id: scope.eventId };
}

type ItemOf<L> = L extends readonly (infer T)[] ? T : never;

/**
 * Plans each item of one of the event's lists, in the file's order, with its path (events[0].stays[2]):
 * the path is made from the list's own field, so a refusal always names the place it came from.
 */
export function eachItem<I, K extends keyof I & string>(
  scope: EventScope,
  input: I,
  list: K,
  plan: (item: ItemOf<I[K]>, path: string, i: number) => void,
): void {
  (input[list] as ItemOf<I[K]>[]).forEach((item, i) => {
    plan(item, `${scope.path}.${list}[${i}]`, i);
  });
}

/**
 * The ids of the event's items a list of keys names (a session's speakers, a door's ticket types),
 * as stored (a JSON array); each reference is checked at its own place, `${path}[j]`.
 */
export function refList(scope: EventScope, kind: string, keys: string[], path: string, what: string): string {
  return json(keys.map((k, j) => scope.plan.ref(kind, scope.eventKey, k, `${path}[${j}]`, what)));
}
