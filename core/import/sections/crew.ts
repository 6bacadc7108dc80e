// Import of an event's crew (volunteers and their roles) and shifts with who is on them. A shift's
// crew list in the file is the whole list: someone missing from it on a later import has dropped
// the shift (shift.dropped), someone new signed up (shift.signed_up).
import * as v from 'valibot';
import { shiftPlaceKinds } from '../../../db/values';
import { email, key, list, name, orNull, ref, utc, whole } from '../fields';
import { json } from '../plan';
import { type EventScope, eachItem, owned } from '../scope';

export const crewMemberFormat = v.strictObject({
  key: key('crew member'),
  name: orNull(name('Name. Personal data.')),
  email: orNull(email('Email address. Personal data.')),
  phone: orNull(v.pipe(v.string(), v.regex(/^\+?[0-9 ()-]{4,30}$/), v.description('Phone. Personal data.'))),
  roles: list(name('A role: door, infoDesk, room, greeter, swag or another.', 50), 'Their roles.', 20),
  attendee: orNull(ref('attendee')),
  invitedUtc: utc('When they were invited'),
  lastSeenUtc: orNull(utc('Last seen at the event')),
});

export const shiftFormat = v.strictObject({
  key: key('shift'),
  role: name('What the shift is for.', 50),
  place: v.strictObject({
    kind: v.picklist(shiftPlaceKinds),
    door: orNull(ref('door')),
    room: orNull(ref('room')),
    name: orNull(name('How the place is shown (default: the door or room name).')),
  }),
  startsUtc: utc('Start'),
  endsUtc: utc('End'),
  needed: whole('People needed.', 1, 1000),
  crew: list(
    v.strictObject({ crewMember: ref('crew member'), signedUpUtc: utc('When they signed up') }),
    'Who is on the shift: the whole list.',
    1000,
  ),
});

export const crewFormat = {
  crew: list(crewMemberFormat, 'Crew members.', 10_000),
  shifts: list(shiftFormat, 'Shifts.', 10_000),
};

type CrewInput = v.InferOutput<v.ObjectSchema<typeof crewFormat, undefined>>;

export function planCrew(scope: EventScope, input: CrewInput): void {
  const { plan, eventKey: ek } = scope;
  eachItem(scope, input, 'crew', (c, path) => {
    plan.add(
      'crew_members',
      {
        ...owned(scope, plan.claim('crewMember', ek, c.key, path)),
        name: c.name,
        email: c.email,
        phone: c.phone,
        roles: json(c.roles),
        attendee_id: plan.refOrNull('attendee', ek, c.attendee, `${path}.attendee`, 'attendee'),
        invited_utc: plan.utc(c.invitedUtc, `${path}.invitedUtc`),
        last_seen_utc: plan.utcOrNull(c.lastSeenUtc, `${path}.lastSeenUtc`),
      },
      path,
      { erased: 0 },
    );
  });
  eachItem(scope, input, 'shifts', (s, path) => {
    const id = plan.claim('shift', ek, s.key, path);
    const { kind, door, room } = s.place;
    if (door !== null && kind !== 'door')
      plan.issue(`${path}.place.door`, 'A door only for a shift at a door.');
    if (room !== null && kind !== 'room')
      plan.issue(`${path}.place.room`, 'A room only for a shift in a room.');
    const [starts, ends] = plan.period(s.startsUtc, s.endsUtc, path, ['startsUtc', 'endsUtc']);
    plan.add(
      'shifts',
      {
        ...owned(scope, id),
        role: s.role,
        place_kind: kind,
        place_id:
          door !== null
            ? plan.ref('door', ek, door, `${path}.place.door`, 'door')
            : room !== null
              ? plan.ref('room', ek, room, `${path}.place.room`, 'room')
              : null,
        place_name: s.place.name,
        starts_utc: starts,
        ends_utc: ends,
        needed: s.needed,
      },
      path,
    );
    const on = new Set<string>();
    plan.setOf(
      'shift_assignments',
      'shift_id',
      id,
      s.crew.map((c, j) => {
        const at = `${path}.crew[${j}]`;
        if (on.has(c.crewMember)) plan.issue(`${at}.crewMember`, `${c.crewMember} is on this shift already.`);
        on.add(c.crewMember);
        return {
          shift_id: id,
          crew_member_id: plan.ref('crewMember', ek, c.crewMember, `${at}.crewMember`, 'crew member'),
          created_utc: plan.utc(c.signedUpUtc, `${at}.signedUpUtc`),
        };
      }),
    );
  });
}
