// What a section of the import needs while it plans one event's items.
import type { ImportPlan } from './plan';

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
