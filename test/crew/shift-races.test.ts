// The shift rules under concurrent sign-ups (issue 25, item 4), each met by two calls that have both
// done their reads before either writes (test/support/interleave.ts), on SQLite and PostgreSQL:
// the last place on a shift is taken once, one person never ends up on two overlapping shifts,
// and needed never ends below the people on a shift. Without the guards in
// core/crew/shift-places.ts (the rows touched first, then one conditional insert) both calls
// would win.
import { describe, expect, it } from 'vitest';
import { createShift } from '../../core/crew/create-shift';
import { inviteCrewMember } from '../../core/crew/invite-crew-member';
import { signUpForShift } from '../../core/crew/sign-up-for-shift';
import { updateShift } from '../../core/crew/update-shift';
import { createEvent } from '../../core/events/create-event';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, atOnce, db } = raceHarness('Shift races');

const shiftAt = (eventId: string, startsLocal: string, endsLocal: string, needed: number) =>
  call(createShift, {
    eventId,
    role: 'door',
    place: { kind: 'area', name: 'Hall' },
    startsLocal,
    endsLocal,
    needed,
  });

async function onShift(shiftId: string): Promise<string[]> {
  const rows = await db()
    .selectFrom('shift_assignments')
    .select('crew_member_id')
    .where('shift_id', '=', shiftId)
    .execute();
  return rows.map((r) => r.crew_member_id);
}

describe('two sign-ups that have both read before either writes', () => {
  it('gives the last place on a shift once; the other is told the shift is full', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const shift = await shiftAt(eventId, '2027-05-01T08:00', '2027-05-01T12:00', 1);
    const a = await call(inviteCrewMember, { eventId, name: 'Ada' });
    const b = await call(inviteCrewMember, { eventId, name: 'Bo' });
    const answers = await atOnce(
      [signUpForShift, { eventId, shiftId: shift.shiftId, crewMemberId: a.crewMemberId }],
      [signUpForShift, { eventId, shiftId: shift.shiftId, crewMemberId: b.crewMemberId }],
    );
    expect(answers.map((x) => (typeof x === 'string' ? x : 'signedUp')).sort()).toEqual([
      'shiftFull',
      'signedUp',
    ]);
    expect(await onShift(shift.shiftId)).toHaveLength(1);
  });

  it('puts one person on one of two overlapping shifts; the other is a clash', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const early = await shiftAt(eventId, '2027-05-01T08:00', '2027-05-01T12:00', 3);
    const late = await shiftAt(eventId, '2027-05-01T11:00', '2027-05-01T14:00', 3);
    const a = await call(inviteCrewMember, { eventId, name: 'Cy' });
    const answers = await atOnce(
      [signUpForShift, { eventId, shiftId: early.shiftId, crewMemberId: a.crewMemberId }],
      [signUpForShift, { eventId, shiftId: late.shiftId, crewMemberId: a.crewMemberId }],
    );
    expect(answers.map((x) => (typeof x === 'string' ? x : 'signedUp')).sort()).toEqual([
      'shiftClash',
      'signedUp',
    ]);
    expect([...(await onShift(early.shiftId)), ...(await onShift(late.shiftId))]).toEqual([a.crewMemberId]);
  });

  it('never leaves more people on a shift than it needs when needed is lowered during a sign-up', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const shift = await shiftAt(eventId, '2027-05-01T08:00', '2027-05-01T12:00', 2);
    const a = await call(inviteCrewMember, { eventId, name: 'Di' });
    const b = await call(inviteCrewMember, { eventId, name: 'Ed' });
    await call(signUpForShift, { eventId, shiftId: shift.shiftId, crewMemberId: a.crewMemberId });
    const answers = await atOnce(
      [signUpForShift, { eventId, shiftId: shift.shiftId, crewMemberId: b.crewMemberId }],
      [updateShift, { eventId, shiftId: shift.shiftId, needed: 1 }],
    );
    const outcomes = answers.map((x) => (typeof x === 'string' ? x : 'done'));
    expect([
      ['done', 'capacityBelowTaken'],
      ['shiftFull', 'done'],
    ]).toContainEqual(outcomes);
    const { needed } = await db()
      .selectFrom('shifts')
      .select('needed')
      .where('id', '=', shift.shiftId)
      .executeTakeFirstOrThrow();
    expect((await onShift(shift.shiftId)).length).toBeLessThanOrEqual(needed);
  });
});
