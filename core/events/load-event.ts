// Finds an event of the caller's workspace (another workspace's id answers 404 as if it did not
// exist) and applies the module and online-event rules the operation asks for.
import type { EventRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { type EventModule, modulesOf } from './event-view';

export interface EventRequirements {
  module?: EventModule;
  /** Door features: online events have none. */
  inPerson?: boolean;
}

export async function loadEvent(ctx: Ctx, eventId: string, needs: EventRequirements = {}): Promise<EventRow> {
  const row = await ctx.db
    .selectFrom('events')
    .selectAll()
    .where('id', '=', eventId)
    .where('workspace_id', '=', ctx.actor.workspaceId)
    .executeTakeFirst();
  if (!row) throw problem('eventNotFound', `No event ${eventId} in this workspace.`);
  if (needs.module && !modulesOf(row)[needs.module]) {
    throw problem('moduleOff', `The organiser switched the ${needs.module} module off for this event.`, {
      module: needs.module,
    });
  }
  if (needs.inPerson && row.online === 1)
    throw problem('onlineEvent', 'This event is online and has no doors.');
  return row;
}
