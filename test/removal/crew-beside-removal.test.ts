// Crew writes beside the removal of the crew member or the shift they name, one call held once it
// has read while the other runs to its end (test/support/race-harness.ts heldOrInTurn). Each must
// end as if the removal had come first: 404 notFound naming what is gone. Before, on PostgreSQL, a
// sign-up beside its crew member's removal answered 500 (its insert met the foreign key), beside its
// shift's removal 409 shiftFull (its conditional insert found no shift), and a second removal of one
// crew member or shift answered deleted again. The writes' touches of the person's and the shift's
// rows (core/crew/shift-places.ts), which lock them, now answer notFound when they changed no row.
// On SQLite the call run meanwhile runs first, then the other.
import { describe, expect, it } from 'vitest';
import { createShift } from '../../core/crew/create-shift';
import { deleteShift } from '../../core/crew/delete-shift';
import { dropShift } from '../../core/crew/drop-shift';
import { inviteCrewMember } from '../../core/crew/invite-crew-member';
import { removeCrewMember } from '../../core/crew/remove-crew-member';
import { signUpForShift } from '../../core/crew/sign-up-for-shift';
import { createEvent } from '../../core/events/create-event';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, heldOrInTurn, db } = raceHarness('Crew beside removal');

/** An event with a shift of three places and a crew member, perhaps on it already. */
async function crewAndShift(onIt: boolean) {
  const { eventId } = await call(createEvent, eventBody());
  const { shiftId } = await call(createShift, {
    eventId,
    role: 'door',
    place: { kind: 'area', name: 'Hall' },
    startsLocal: '2027-05-01T08:00',
    endsLocal: '2027-05-01T10:00',
    needed: 3,
  });
  const { crewMemberId } = await call(inviteCrewMember, { eventId, name: 'Ada' });
  if (onIt) await call(signUpForShift, { eventId, shiftId, crewMemberId });
  return { eventId, shiftId, crewMemberId };
}

const assignments = () => db().selectFrom('shift_assignments').select('shift_id').execute();

describe('a crew write beside the removal of what it names', () => {
  it("a sign-up beside its crew member's removal: 404 notFound", async () => {
    const { eventId, shiftId, crewMemberId } = await crewAndShift(false);
    const before = (await assignments()).length;
    const [signedUp, removed] = await heldOrInTurn(
      [signUpForShift, { eventId, shiftId, crewMemberId }],
      [removeCrewMember, { eventId, crewMemberId }],
    );
    expect(removed).toEqual({ crewMemberId, deleted: true });
    expect(signedUp).toBe('notFound');
    expect((await assignments()).length).toBe(before);
  });

  it("a sign-up beside its shift's removal: 404 notFound, not shiftFull", async () => {
    const { eventId, shiftId, crewMemberId } = await crewAndShift(false);
    const [signedUp, removed] = await heldOrInTurn(
      [signUpForShift, { eventId, shiftId, crewMemberId }],
      [deleteShift, { eventId, shiftId }],
    );
    expect(removed).toEqual({ shiftId, deleted: true });
    expect(signedUp).toBe('notFound');
  });

  it("a drop beside its crew member's removal: 404 notFound", async () => {
    const { eventId, shiftId, crewMemberId } = await crewAndShift(true);
    const [dropped, removed] = await heldOrInTurn(
      [dropShift, { eventId, shiftId, crewMemberId }],
      [removeCrewMember, { eventId, crewMemberId }],
    );
    expect(removed).toEqual({ crewMemberId, deleted: true });
    expect(dropped).toBe('notFound');
  });

  it('two removals of one crew member: the second answers notFound', async () => {
    const { eventId, crewMemberId } = await crewAndShift(true);
    const [held, first] = await heldOrInTurn(
      [removeCrewMember, { eventId, crewMemberId }],
      [removeCrewMember, { eventId, crewMemberId }],
    );
    expect(first).toEqual({ crewMemberId, deleted: true });
    expect(held).toBe('notFound');
  });

  it('two removals of one shift: the second answers notFound', async () => {
    const { eventId, shiftId } = await crewAndShift(true);
    const [held, first] = await heldOrInTurn(
      [deleteShift, { eventId, shiftId }],
      [deleteShift, { eventId, shiftId }],
    );
    expect(first).toEqual({ shiftId, deleted: true });
    expect(held).toBe('notFound');
  });
});
