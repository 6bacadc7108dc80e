// The public Session resource, built from its row in one place. The join link of an online
// session (join_url) is never part of it: only the streaming service's name (joinProvider).
import * as v from 'valibot';
import type { EventRow, SessionRow } from '../../db/schema';
import { type SessionKind, sessionKinds } from '../../db/values';
import { dateTime, int32, localTime, text, uuid } from '../platform/schemas';
import { toLocal } from '../platform/time';

export { type SessionKind, sessionKinds };

export const sessionSchema = v.object({
  sessionId: uuid('The session id.'),
  eventId: uuid('The event id.'),
  title: text('Title, at most 300 characters.'),
  summary: v.nullable(text('Summary in Markdown.')),
  kind: v.pipe(
    v.picklist(sessionKinds),
    v.description('talk, keynote, workshop, panel, break, meal, networking or other.'),
  ),
  roomId: v.nullable(uuid('The room it is held in; null when it has none (online, or the foyer).')),
  trackId: v.nullable(uuid('The track it belongs to.')),
  startsUtc: dateTime('Start.'),
  endsUtc: dateTime('End.'),
  startsLocal: localTime('Start'),
  endsLocal: localTime('End'),
  timeZone: text("IANA time zone of the venue (the event's); the Local fields are in it."),
  minutes: int32('Duration in minutes.'),
  capacity: v.nullable(int32("Seats, when fewer than the room's; null when the room's capacity applies.")),
  language: v.nullable(text('Language tag the session is held in.')),
  joinProvider: v.nullable(
    text(
      'Streaming service of an online session (for example Zoom). The join link itself is never returned.',
    ),
  ),
  speakerIds: v.pipe(v.array(v.pipe(v.string(), v.uuid())), v.description('Speakers, in order.')),
  draft: v.pipe(
    v.boolean(),
    v.description(
      'Tessera extension. True for a session made by accepting a submission and not yet published: the public event page leaves it out until draft is set to false.',
    ),
  ),
  updatedUtc: v.nullable(dateTime('Last change; pass the newest as updatedSince.')),
});

export type SessionView = v.InferOutput<typeof sessionSchema>;

export function sessionView(event: Pick<EventRow, 'time_zone'>, row: SessionRow): SessionView {
  return {
    sessionId: row.id,
    eventId: row.event_id,
    title: row.title,
    summary: row.summary,
    kind: row.kind,
    roomId: row.room_id,
    trackId: row.track_id,
    startsUtc: row.starts_utc,
    endsUtc: row.ends_utc,
    startsLocal: toLocal(row.starts_utc, event.time_zone),
    endsLocal: toLocal(row.ends_utc, event.time_zone),
    timeZone: event.time_zone,
    minutes: Math.round((Date.parse(row.ends_utc) - Date.parse(row.starts_utc)) / 60_000),
    capacity: row.capacity,
    language: row.language,
    joinProvider: row.join_provider,
    speakerIds: JSON.parse(row.speaker_ids) as string[],
    draft: row.draft === 1,
    updatedUtc: row.updated_utc,
  };
}
