// An erasure beside the removal of a draft event the person is on (a speaker of a submission and a
// crew member there). The erasure writes the person's rows table by table (personal-resources.ts);
// the event's removal locks the event, then its rows as its foreign keys cascade, in another order.
// On PostgreSQL the two met in a circle; the erasure now holds the workspace's events first (in id
// order), as every write holds its event before the event's rows, so the removal waits for it.
// Held before it finds the crew rows, while the removal runs (race-harness.ts waitsFor).
import { describe, expect, it } from 'vitest';
import { erasePersonDataOperation as erasePersonData } from '../../core/admin/erase-person';
import { createSubmission } from '../../core/cfp/create-submission';
import { inviteCrewMember } from '../../core/crew/invite-crew-member';
import { createEvent } from '../../core/events/create-event';
import { deleteEvent } from '../../core/events/delete-event';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, waitsFor, db } = raceHarness('Erasure beside event removal');

describe('an erasure beside the removal of a draft event the person is on', () => {
  it('the person erased, then the event removed', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const email = `kim.${Date.now()}@example.org`;
    await call(createSubmission, {
      eventId,
      title: 'Erased beside a removal',
      abstract: 'Two writers, one circle.',
      format: 'talk',
      language: 'en',
      speakers: [{ name: 'Kim', email }],
    });
    await call(inviteCrewMember, { eventId, name: 'Kim', email });
    const [erased, removed] = await waitsFor([erasePersonData, { email }], /select id from "crew_members"/, [
      deleteEvent,
      { eventId },
    ]);
    expect(erased).toMatchObject({ submissionSpeakers: 1, crewMembers: 1 });
    expect(removed).toMatchObject({ eventId, deleted: true });
    expect(await db().selectFrom('events').select('id').where('id', '=', eventId).execute()).toEqual([]);
  });
});
