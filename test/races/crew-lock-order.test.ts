// Shifts and the people on them are locked in one order (core/crew/shift-places.ts): people before
// shifts, people in id order. A sign-up, a drop and a person's removal take the person's row, then
// the shift's; a shift's change (times, needed) and its removal used to take the shift's row first,
// then each person on it, in the order they signed up. Beside a drop of someone on the shift, each
// held one row and waited for the other's: PostgreSQL found the circle after a second and ended one
// of them as a deadlock's victim (the server's write queue runs a victim again, so only the time
// showed; here nothing runs again, so the victim answers the error). Now a shift's change or
// removal locks the people on it first (lockCrewThenShift), so the other waits instead.
// On PostgreSQL the calls read before either writes or locks (test/support/interleave.ts); SQLite
// writes one call at a time, so there they run in turn and these tests show only the answers.
import { describe, expect, it } from 'vitest';
import { createShift } from '../../core/crew/create-shift';
import { deleteShift } from '../../core/crew/delete-shift';
import { dropShift } from '../../core/crew/drop-shift';
import { inviteCrewMember } from '../../core/crew/invite-crew-member';
import { removeCrewMember } from '../../core/crew/remove-crew-member';
import { signUpForShift } from '../../core/crew/sign-up-for-shift';
import { updateShift } from '../../core/crew/update-shift';
import { createEvent } from '../../core/events/create-event';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { onPostgres } from '../support/test-store';

const { call, atOnce, inTurn, heldOrInTurn, heldAt, db } = raceHarness('Crew lock order');
const race = onPostgres ? atOnce : inTurn;
const day = (time: string) => `2027-05-01T${time}`;

async function shiftAt(eventId: string, starts: string, ends: string, needed = 4): Promise<string> {
  const { shiftId } = await call(createShift, {
    eventId,
    role: 'door',
    place: { kind: 'area', name: 'Hall' },
    startsLocal: day(starts),
    endsLocal: day(ends),
    needed,
  });
  return shiftId;
}

async function crewOn(eventId: string, shiftIds: string[], count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const { crewMemberId } = await call(inviteCrewMember, { eventId, name: `Crew ${i}` });
    for (const shiftId of shiftIds) await call(signUpForShift, { eventId, shiftId, crewMemberId });
    ids.push(crewMemberId);
  }
  return ids;
}

const assignments = (shiftId: string) =>
  db()
    .selectFrom('shift_assignments')
    .select('crew_member_id')
    .where('shift_id', '=', shiftId)
    .orderBy('crew_member_id')
    .execute()
    .then((rows) => rows.map((r) => r.crew_member_id));

describe('a shift changed or removed beside a drop of someone on it', () => {
  it("the shift's new times and the drop are both answered", async () => {
    const { eventId } = await call(createEvent, eventBody());
    const shiftId = await shiftAt(eventId, '08:00', '12:00');
    const [crewMemberId, stays] = await crewOn(eventId, [shiftId], 2);
    const [moved, dropped] = await race(
      [updateShift, { eventId, shiftId, startsLocal: day('09:00') }],
      [dropShift, { eventId, shiftId, crewMemberId }],
    );
    expect(dropped).toMatchObject({ shiftId, crewMemberId, deleted: true });
    expect(moved).toMatchObject({ shiftId, startsLocal: day('09:00') });
    expect(await assignments(shiftId)).toEqual([stays]);
  });

  it("the shift's removal and the drop: the removal answered, nobody left on it", async () => {
    const { eventId } = await call(createEvent, eventBody());
    const shiftId = await shiftAt(eventId, '08:00', '12:00');
    const [crewMemberId] = await crewOn(eventId, [shiftId], 2);
    const [removed, dropped] = await race(
      [deleteShift, { eventId, shiftId }],
      [dropShift, { eventId, shiftId, crewMemberId }],
    );
    expect(removed).toEqual({ shiftId, deleted: true });
    // The drop either came first, or found the shift gone.
    expect([{ shiftId, crewMemberId, deleted: true }, 'notFound']).toContainEqual(dropped);
    expect(await assignments(shiftId)).toEqual([]);
  });

  it("the shift's removal and a person's removal", async () => {
    const { eventId } = await call(createEvent, eventBody());
    const shiftId = await shiftAt(eventId, '08:00', '12:00');
    const [crewMemberId] = await crewOn(eventId, [shiftId], 2);
    const [removedShift, removedPerson] = await race(
      [deleteShift, { eventId, shiftId }],
      [removeCrewMember, { eventId, crewMemberId }],
    );
    expect(removedShift).toEqual({ shiftId, deleted: true });
    expect(removedPerson).toEqual({ crewMemberId, deleted: true });
    expect(await assignments(shiftId)).toEqual([]);
  });
});

describe('two shifts with the same people, changed at once', () => {
  it('both answered: the people are locked in id order, whatever order they signed up in', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const first = await shiftAt(eventId, '08:00', '10:00');
    const second = await shiftAt(eventId, '14:00', '16:00');
    const { crewMemberId: a } = await call(inviteCrewMember, { eventId, name: 'Ada' });
    const { crewMemberId: b } = await call(inviteCrewMember, { eventId, name: 'Bo' });
    // Signed up in opposite orders (a few milliseconds apart, so the order is the sign-ups' and not
    // the ids'): in their sign-ups' order, each change would take them crosswise.
    for (const [shiftId, people] of [
      [first, [a, b]],
      [second, [b, a]],
    ] as const)
      for (const crewMemberId of people) {
        await call(signUpForShift, { eventId, shiftId, crewMemberId });
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    const answers = await race(
      [updateShift, { eventId, shiftId: first, endsLocal: day('11:00') }],
      [updateShift, { eventId, shiftId: second, endsLocal: day('17:00') }],
    );
    expect(answers).toMatchObject([{ endsLocal: day('11:00') }, { endsLocal: day('17:00') }]);
  });
});

describe('a sign-up between the read of the people on a shift and its lock', () => {
  it('the change runs again and checks the newcomer too', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const shiftId = await shiftAt(eventId, '08:00', '10:00');
    const later = await shiftAt(eventId, '10:00', '12:00');
    await crewOn(eventId, [shiftId], 1);
    const [newcomer] = await crewOn(eventId, [later], 1);
    // The change read one person on the shift; the newcomer signs up and commits before its lock
    // (held before it locks the first person: it holds its event already, which a sign-up shares).
    const change: [AnyOperation, unknown] = [updateShift, { eventId, shiftId, endsLocal: day('11:00') }];
    const signUp: [AnyOperation, unknown] = [signUpForShift, { eventId, shiftId, crewMemberId: newcomer }];
    const [held, signedUp] = onPostgres
      ? (await heldAt(change, /from "crew_members" .*for no key update/, signUp)).answers
      : await heldOrInTurn(change, signUp);
    expect(signedUp).toMatchObject({ shiftId, crewMemberIds: expect.arrayContaining([newcomer]) });
    // On PostgreSQL the change finds the newcomer under its locks and runs again whole (as the write
    // queue runs it); on SQLite it runs after the sign-up. Either way the newcomer's later shift now
    // overlaps.
    expect(held).toBe('shiftClash');
  });
});
