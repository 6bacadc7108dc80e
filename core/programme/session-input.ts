// Input fields and rules shared by adding and changing a session: the room, track and speakers
// must be the event's own, and a room holds one session at a time (409 clash naming the sessions
// in the way, unless allowClash). Times are compared as instants, whatever pair they came in.
import * as v from 'valibot';
import { referencedRow, sharedRow, transactionLock } from '../../db/dialect';
import type { EventRow, RoomRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import type { FieldErrors } from '../platform/field-errors';
import { heldEventIds } from '../platform/pipeline/load-event-row';
import { problem } from '../platform/problems';
import {
  dateTime,
  languageTagMessage,
  languageTagPattern,
  localTime,
  multiLine,
  oneLine,
  uuid,
} from '../platform/schemas';
import { sessionKinds } from './session-view';

export const sessionFields = {
  title: v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(300)),
  kind: v.pipe(
    v.picklist(sessionKinds),
    v.description('talk (the default), keynote, workshop, panel, break, meal, networking or other.'),
  ),
  startsLocal: localTime('Start'),
  endsLocal: localTime('End'),
  startsUtc: dateTime('Wins over startsLocal.'),
  endsUtc: dateTime('Wins over endsLocal.'),
  roomId: v.nullable(uuid('Null: no room.')),
  trackId: v.nullable(uuid('Null: no track.')),
  summary: v.nullable(v.pipe(v.string(), multiLine, v.maxLength(20_000), v.description('Markdown.'))),
  capacity: v.nullable(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(2_147_483_647),
      v.description("At most the room's seats; null: the room's."),
    ),
  ),
  language: v.nullable(
    v.pipe(
      v.string(),
      v.regex(languageTagPattern, languageTagMessage),
      v.description('Language tag, e.g. en.'),
    ),
  ),
  speakerIds: v.pipe(
    v.array(v.pipe(v.string(), v.uuid())),
    v.maxLength(50),
    v.description('In the order the programme shows them.'),
  ),
  allowClash: v.pipe(v.boolean(), v.description('Place it even if the room is taken then. Default false.')),
};

/** What a session is made of: title required; PATCH takes every field as optional. */
export const sessionBody = v.object({
  title: sessionFields.title,
  kind: v.optional(sessionFields.kind),
  startsLocal: v.optional(sessionFields.startsLocal),
  endsLocal: v.optional(sessionFields.endsLocal),
  startsUtc: v.optional(sessionFields.startsUtc),
  endsUtc: v.optional(sessionFields.endsUtc),
  roomId: v.optional(sessionFields.roomId),
  trackId: v.optional(sessionFields.trackId),
  summary: v.optional(sessionFields.summary),
  capacity: v.optional(sessionFields.capacity),
  language: v.optional(sessionFields.language),
  speakerIds: v.optional(sessionFields.speakerIds),
  allowClash: v.optional(sessionFields.allowClash),
});

export interface Placement {
  roomId?: string | null;
  trackId?: string | null;
  speakerIds?: string[];
}

/**
 * Checks that the room, track and speakers sent are the event's own; answers the room row. Each is
 * held on PostgreSQL as the session will refer to it (db/dialect.ts referencedRow): a removal of it
 * counting its sessions waits for this write, or has removed it and it is not found here. The room
 * is held shared (sharedRow), as its capacity is checked against: a change of it waits too.
 */
export async function checkPlacement(
  ctx: Ctx,
  event: EventRow,
  placement: Placement,
  errors: FieldErrors,
): Promise<{ room: RoomRow | null | undefined }> {
  let room: RoomRow | null | undefined;
  if (placement.roomId === null) room = null;
  else if (placement.roomId !== undefined) {
    room = await sharedRow(
      ctx.db,
      ctx.db
        .selectFrom('rooms')
        .selectAll()
        .where('id', '=', placement.roomId)
        .where('event_id', '=', event.id),
    ).executeTakeFirst();
    if (!room) errors.add('roomId', `${placement.roomId} is not a room of this event.`);
  }
  if (placement.trackId) {
    const track = await referencedRow(
      ctx.db,
      ctx.db
        .selectFrom('tracks')
        .select('id')
        .where('id', '=', placement.trackId)
        .where('event_id', '=', event.id),
    ).executeTakeFirst();
    if (!track) errors.add('trackId', `${placement.trackId} is not a track of this event.`);
  }
  const speakerIds = placement.speakerIds ?? [];
  if (speakerIds.length > 0) {
    const known = await heldEventIds(ctx, 'speakers', event.id, speakerIds);
    const seen = new Set<string>();
    speakerIds.forEach((id, i) => {
      if (!known.has(id)) errors.add(`speakerIds.${i}`, `${id} is not a speaker of this event.`);
      else if (seen.has(id)) errors.add(`speakerIds.${i}`, `${id} is named twice.`);
      seen.add(id);
    });
  }
  return { room };
}

export function checkCapacity(room: RoomRow | null, capacity: number | null, errors: FieldErrors): void {
  if (room && room.capacity !== null && capacity !== null && capacity > room.capacity) {
    errors.add('capacity', `The room ${room.name} has ${room.capacity} seats; the session cannot have more.`);
  }
}

export interface ClashingSession {
  sessionId: string;
  title: string;
  startsUtc: string;
  endsUtc: string;
}

/**
 * Refuses with 409 clash when another session has the room at any moment between starts and ends.
 * Sessions that only touch (one ends when the other starts) do not clash.
 */
export async function refuseClash(
  ctx: Ctx,
  roomId: string,
  startsUtc: string,
  endsUtc: string,
  exceptSessionId: string | null,
): Promise<void> {
  // Two writers placing sessions in one room (two processes) check one after the other.
  await transactionLock(ctx.db, `room ${roomId}`);
  let query = ctx.db
    .selectFrom('sessions')
    .select(['id', 'title', 'starts_utc', 'ends_utc'])
    .where('room_id', '=', roomId)
    .where('starts_utc', '<', endsUtc)
    .where('ends_utc', '>', startsUtc)
    .orderBy('starts_utc')
    .orderBy('id');
  if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
  const rows = await query.execute();
  if (rows.length === 0) return;
  const sessions: ClashingSession[] = rows.map((r) => ({
    sessionId: r.id,
    title: r.title,
    startsUtc: r.starts_utc,
    endsUtc: r.ends_utc,
  }));
  const names = sessions.map((s) => `"${s.title}"`).join(', ');
  throw problem(
    'clash',
    `The room is taken at that time by ${names}. Choose another time or room, or send allowClash true.`,
    { sessions },
  );
}
