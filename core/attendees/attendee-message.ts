// Outbox messages of the attendee family: data = { event: { eventId, slug, name }, attendee }.
import type { EventRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { emitAll, type WebhookEventType } from '../platform/storage/outbox';
import { type AttendeeJoinedRow, attendeeQuery, attendeeView } from './attendee-view';

export function eventRef(event: Pick<EventRow, 'id' | 'slug' | 'name'>) {
  return { eventId: event.id, slug: event.slug, name: event.name };
}

/** Emits one message per attendee, rendered unredacted (the dispatcher redacts per subscriber). */
export async function emitAttendeeMessages(
  ctx: Ctx,
  type: Extract<WebhookEventType, `attendee.${string}`>,
  event: Pick<EventRow, 'id' | 'slug' | 'name'>,
  attendeeIds: string[],
): Promise<void> {
  if (attendeeIds.length === 0) return;
  const rows: AttendeeJoinedRow[] = await attendeeQuery(ctx.db)
    .where('attendees.id', 'in', attendeeIds)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const found = attendeeIds.flatMap((id) => byId.get(id) ?? []);
  await emitAttendeeRowMessages(ctx, type, event, found);
}

/** The same, for rows the caller already holds as they are now (just written, say). */
export async function emitAttendeeRowMessages(
  ctx: Ctx,
  type: Extract<WebhookEventType, `attendee.${string}`>,
  event: Pick<EventRow, 'id' | 'slug' | 'name'>,
  rows: AttendeeJoinedRow[],
): Promise<void> {
  const ref = eventRef(event);
  await emitAll(
    ctx,
    rows.map((row) => ({
      type,
      eventId: event.id,
      data: { event: ref, attendee: attendeeView('unredacted', row) },
    })),
  );
}
