// Import of an event's programme (rooms, tracks, speakers, sessions) and its doors. People inside
// a door are counted by scans at the door, never imported.
import * as v from 'valibot';
import { doorKinds, sessionKinds } from '../../../db/values';
import { oneLine } from '../../platform/schemas';
import { email, key, language, line, list, name, orFalse, orNull, ref, utc, whole, words } from '../fields';
import { flag } from '../plan';
import { type EventScope, eachItem, owned, refList } from '../scope';

export const roomFormat = v.strictObject({
  key: key('room'),
  name: name('Name, as the programme shows it.'),
  capacity: orNull(whole('Seats; null: not limited.')),
  location: orNull(line('Where to find it in the venue.', 200)),
});

export const trackFormat = v.strictObject({
  key: key('track'),
  name: name('Name, as the programme shows it.'),
  colour: v.optional(v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/), v.description('#rrggbb.')), '#4c6ef5'),
  description: orNull(words('Description.')),
});

export const speakerFormat = v.strictObject({
  key: key('speaker'),
  name: name('Name, as the programme shows it.'),
  email: orNull(email('Email address. Personal data.')),
  company: orNull(name('Company.')),
  jobTitle: orNull(name('Job title.')),
  bio: orNull(words('Short biography in Markdown.', 5000)),
  photoUrl: orNull(
    v.pipe(
      v.string(),
      oneLine,
      v.url(),
      v.startsWith('https://'),
      v.description('https address of the photo.'),
    ),
  ),
});

export const sessionFormat = v.strictObject({
  key: key('session'),
  title: name('Title.', 300),
  kind: v.optional(v.picklist(sessionKinds), 'talk'),
  startsUtc: utc('Start'),
  endsUtc: utc('End'),
  room: orNull(ref('room')),
  track: orNull(ref('track')),
  summary: orNull(words('Summary in Markdown.', 20_000)),
  capacity: orNull(whole('Seats, when fewer than the room has.', 1)),
  language: orNull(language),
  speakers: list(ref('speaker'), 'Keys of its speakers, in the order the programme shows them.', 50),
});

export const doorFormat = v.strictObject({
  key: key('door'),
  name: name('Name the stewards see.'),
  kind: v.optional(v.picklist(doorKinds), 'entrance'),
  main: orFalse("The event's main entrance (one door at most)."),
  session: orNull(ref('session')),
  capacity: orNull(whole('People inside at once; null: not limited.', 1)),
  reentry: v.optional(v.pipe(v.boolean(), v.description('Re-entry allowed (default true).')), true),
  ticketTypes: list(ref('ticket type'), 'Keys of the ticket types it admits; empty: all.'),
  addOns: list(ref('add-on'), 'Keys of the add-ons one of which it requires; empty: none.'),
});

export const programmeFormat = {
  rooms: list(roomFormat, 'Rooms.', 1000),
  tracks: list(trackFormat, 'Tracks.', 1000),
  speakers: list(speakerFormat, 'Speakers.', 10_000),
  sessions: list(sessionFormat, 'Sessions.', 10_000),
  doors: list(doorFormat, 'Doors.', 1000),
};

type ProgrammeInput = v.InferOutput<v.ObjectSchema<typeof programmeFormat, undefined>>;

export function planProgramme(scope: EventScope, input: ProgrammeInput, online: boolean): void {
  planRooms(scope, input);
  planTracks(scope, input);
  planSpeakers(scope, input);
  planSessions(scope, input);
  planDoors(scope, input, online);
}

function planRooms(scope: EventScope, input: ProgrammeInput): void {
  eachItem(scope, input, 'rooms', (r, path, i) => {
    const id = scope.plan.claim('room', scope.eventKey, r.key, path);
    scope.plan.add(
      'rooms',
      { ...owned(scope, id), name: r.name, capacity: r.capacity, location: r.location, sort_order: i + 1 },
      path,
    );
  });
}

function planTracks(scope: EventScope, input: ProgrammeInput): void {
  eachItem(scope, input, 'tracks', (t, path, i) => {
    const id = scope.plan.claim('track', scope.eventKey, t.key, path);
    scope.plan.add(
      'tracks',
      { ...owned(scope, id), name: t.name, colour: t.colour, description: t.description, sort_order: i + 1 },
      path,
    );
  });
}

function planSpeakers(scope: EventScope, input: ProgrammeInput): void {
  eachItem(scope, input, 'speakers', (s, path) => {
    const id = scope.plan.claim('speaker', scope.eventKey, s.key, path);
    scope.plan.add(
      'speakers',
      {
        ...owned(scope, id),
        name: s.name,
        email: s.email,
        company: s.company,
        job_title: s.jobTitle,
        bio: s.bio,
        photo_url: s.photoUrl,
      },
      path,
      { erased: 0 },
    );
  });
}

function planSessions(scope: EventScope, input: ProgrammeInput): void {
  const { plan, eventKey: ek } = scope;
  eachItem(scope, input, 'sessions', (s, path) => {
    const id = plan.claim('session', ek, s.key, path);
    const [starts, ends] = plan.period(s.startsUtc, s.endsUtc, path, ['startsUtc', 'endsUtc']);
    plan.add(
      'sessions',
      {
        ...owned(scope, id),
        title: s.title,
        summary: s.summary,
        kind: s.kind,
        room_id: plan.refOrNull('room', ek, s.room, `${path}.room`, 'room'),
        track_id: plan.refOrNull('track', ek, s.track, `${path}.track`, 'track'),
        starts_utc: starts,
        ends_utc: ends,
        capacity: s.capacity,
        language: s.language,
        speaker_ids: refList(scope, 'speaker', s.speakers, `${path}.speakers`, 'speaker'),
      },
      path,
      { join_provider: null, join_url: null },
    );
  });
}

function planDoors(scope: EventScope, input: ProgrammeInput, online: boolean): void {
  const { plan, eventKey: ek } = scope;
  if (online && input.doors.length > 0) plan.issue(`${scope.path}.doors`, 'An online event has no doors.');
  if (input.doors.filter((d) => d.main).length > 1)
    plan.issue(`${scope.path}.doors`, 'One door at most is the main entrance.');
  eachItem(scope, input, 'doors', (d, path, i) => {
    const id = plan.claim('door', ek, d.key, path);
    if (d.main && d.kind !== 'entrance')
      plan.issue(`${path}.main`, 'Only an entrance can be the main entrance.');
    if ((d.kind === 'session') !== (d.session !== null))
      plan.issue(`${path}.session`, 'A session door names its session, and only a session door does.');
    plan.add(
      'doors',
      {
        ...owned(scope, id),
        name: d.name,
        kind: d.kind,
        main: flag(d.main),
        session_id: plan.refOrNull('session', ek, d.session, `${path}.session`, 'session'),
        capacity: d.capacity,
        reentry: flag(d.reentry),
        ticket_type_ids: refList(scope, 'ticketType', d.ticketTypes, `${path}.ticketTypes`, 'ticket type'),
        add_on_ids: refList(scope, 'addOn', d.addOns, `${path}.addOns`, 'add-on'),
        sort_order: i + 1,
      },
      path,
      { inside: 0 },
    );
  });
}
