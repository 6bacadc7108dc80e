// A change of an attendee, a crew member, a speaker or a lead held once it has read while the person's erasure
// runs to its end (test/support/race-harness.ts heldOrInTurn): the change must answer what it
// answers for an erased row (400 invalidRequest) and the row keep nothing personal. On PostgreSQL
// the change read the row unlocked, found it not erased, and wrote the person's data back after the
// erasure had committed; now it locks the row as it reads it (db/dialect.ts changingRow), so it
// waits for the erasure and then sees the row erased. Likewise a booth's capture of the visitor:
// it copied their details into a new lead after the erasure had committed; now it holds the
// attendee shared while it reads them (core/sponsors/lead-visitor.ts) and finds them erased; and a
// journey booked for a person, whose names it copies (core/logistics/who-for.ts).
import { describe, expect, it } from 'vitest';
import { erasePersonDataOperation } from '../../core/admin/erase-person';
import { countName } from '../../core/admin/erasure-counts';
import { attendeePersonal } from '../../core/attendees/attendee-view';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { updateAttendee } from '../../core/attendees/update-attendee';
import { crewMemberPersonal } from '../../core/crew/crew-view';
import { inviteCrewMember } from '../../core/crew/invite-crew-member';
import { updateCrewMember } from '../../core/crew/update-crew-member';
import { createEvent } from '../../core/events/create-event';
import { bookTravel } from '../../core/logistics/book-travel';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { erasedColumns, type PersonalResource } from '../../core/platform/pipeline/personal-data';
import { createSpeaker } from '../../core/programme/create-speaker';
import { speakerPersonal } from '../../core/programme/speaker-view';
import { updateSpeaker } from '../../core/programme/update-speaker';
import { captureLead } from '../../core/sponsors/capture-lead';
import { createSponsor } from '../../core/sponsors/create-sponsor';
import { leadPersonal } from '../../core/sponsors/lead-view';
import { updateLead } from '../../core/sponsors/update-lead';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import type { Database } from '../../db/schema';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, heldOrInTurn, db } = raceHarness('Change beside erasure');

interface Case {
  row: string;
  personal: PersonalResource<string, string>;
  /** Makes the person's row at the event; answers the change's input. */
  make(eventId: string, email: string): Promise<Record<string, unknown>>;
  change: AnyOperation;
}

async function ticketFor(eventId: string, email: string): Promise<string> {
  const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day' });
  const { attendees } = await call(registerAttendees, {
    eventId,
    attendees: [{ ticketTypeId, firstName: 'Ada', lastName: 'Visitor', email }],
  });
  return attendees[0].attendeeId;
}

const cases: Case[] = [
  {
    row: 'an attendee',
    personal: attendeePersonal,
    make: async (eventId, email) => ({
      eventId,
      attendeeId: await ticketFor(eventId, email),
      firstName: 'Back',
      company: 'Again Ltd',
    }),
    change: updateAttendee,
  },
  {
    row: 'a crew member',
    personal: crewMemberPersonal,
    make: async (eventId, email) => {
      const { crewMemberId } = await call(inviteCrewMember, { eventId, name: 'Ada Crew', email });
      return { eventId, crewMemberId, name: 'Back Again', phone: '+44 20 7946 0000' };
    },
    change: updateCrewMember,
  },
  {
    row: 'a speaker',
    personal: speakerPersonal,
    make: async (eventId, email) => {
      const { speakerId } = await call(createSpeaker, { eventId, name: 'Ada Speaker', email });
      return { eventId, speakerId, company: 'Again Ltd', bio: 'Back again.' };
    },
    change: updateSpeaker,
  },
  {
    row: 'a lead',
    personal: leadPersonal,
    make: async (eventId, email) => {
      const attendeeId = await ticketFor(eventId, email);
      const { sponsorId } = await call(createSponsor, { eventId, name: 'Booth' });
      const { lead } = await call(captureLead, { eventId, sponsorId, attendeeId, consent: true, rating: 2 });
      return { eventId, leadId: lead.leadId, answers: { budget: 'large' } };
    },
    change: updateLead,
  },
];

/** The row's personal columns that hold something, with its erased flag. */
async function leftOf(c: Case, id: string) {
  const row = (await db()
    .selectFrom(c.personal.table as keyof Database)
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()) as Record<string, unknown>;
  const kept = erasedColumns(c.personal).filter((column) => row[column] !== null);
  return { erased: row.erased, kept };
}

describe('a change of a person’s row held once it has read while their erasure runs to its end', () => {
  it.each(cases.map((c, i) => [c.row, c, i] as const))(
    '%s: the change answers 400 invalidRequest and the row keeps nothing personal',
    async (_row, c, i) => {
      const { eventId } = await call(createEvent, eventBody());
      const email = `erased-${i}@example.org`;
      const input = await c.make(eventId, email);
      const [changed, erased] = await heldOrInTurn([c.change, input], [erasePersonDataOperation, { email }]);
      expect(erased[countName(c.personal)]).toBe(1);
      expect(changed).toBe('invalidRequest');
      const id = (input.attendeeId ?? input.crewMemberId ?? input.speakerId ?? input.leadId) as string;
      expect(await leftOf(c, id)).toEqual({ erased: 1, kept: [] });
    },
  );
});

describe('a capture of a visitor held once it has read while their erasure runs to its end', () => {
  it('answers 404 attendeeNotFound and no lead keeps anything of them', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const email = 'captured-erased@example.org';
    const attendeeId = await ticketFor(eventId, email);
    const { sponsorId } = await call(createSponsor, { eventId, name: 'Booth' });
    const capture = { eventId, sponsorId, attendeeId, consent: true, shareEmail: true, rating: 3 };
    const [captured, erased] = await heldOrInTurn(
      [captureLead, capture],
      [erasePersonDataOperation, { email }],
    );
    expect(erased[countName(attendeePersonal)]).toBe(1);
    expect(captured).toBe('attendeeNotFound');
    const leads = await db().selectFrom('leads').selectAll().where('attendee_id', '=', attendeeId).execute();
    expect(
      leads.flatMap((lead) =>
        erasedColumns(leadPersonal).filter((c) => lead[c as keyof typeof lead] !== null),
      ),
    ).toEqual([]);
  });
});

describe('a journey booked for a crew member, held once it has read while their erasure runs to its end', () => {
  it('answers 400 invalidRequest and no journey keeps their name', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const email = 'travelling-erased@example.org';
    const { crewMemberId } = await call(inviteCrewMember, { eventId, name: 'Ada Crew', email });
    const journey = {
      eventId,
      crewMemberId,
      mode: 'train',
      from: 'Bergen',
      to: 'Oslo S',
      departsUtc: '2027-04-30T06:00:00Z',
      arrivesUtc: '2027-04-30T13:00:00Z',
    };
    const [booked, erased] = await heldOrInTurn([bookTravel, journey], [erasePersonDataOperation, { email }]);
    expect(erased[countName(crewMemberPersonal)]).toBe(1);
    expect(booked).toBe('invalidRequest');
    const travel = await db()
      .selectFrom('travel')
      .selectAll()
      .where('crew_member_id', '=', crewMemberId)
      .execute();
    expect(travel).toEqual([]);
  });
});
