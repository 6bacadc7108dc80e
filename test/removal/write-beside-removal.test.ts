// A write naming a row (a lead for a sponsor, a sponsor given a level, a registration with a ticket
// type or an add-on, a rating of a session, a member joining a community, a scan at a door), or a
// second removal of the same row, while a removal of that row commits between the write's read of
// it and its write. On PostgreSQL several write transactions run at once, so this happens; the
// write is held once it has read while the removal runs to its end (race-harness.ts
// heldOrInTurn; on SQLite, one writer, the removal simply runs first). It must end as if the calls
// came one after the other: the removal goes through, and the write answers what it answers for a
// row that is not there (its own 404 or 400), never a 500 on the foreign key, a refusal of another
// kind (soldOut for a ticket type that is gone), nor deleted: true for a row already removed.
import { describe, expect, it } from 'vitest';
import { getAttendee } from '../../core/attendees/get-attendee';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { checkInAttendee } from '../../core/checkin/check-in-attendee';
import { checkInByCode } from '../../core/checkin/check-in-by-code';
import { createDoor } from '../../core/checkin/create-door';
import { deleteDoor } from '../../core/checkin/delete-door';
import { deleteCommunity } from '../../core/communities/delete-community';
import { joinCommunity } from '../../core/communities/join-community';
import { createEvent } from '../../core/events/create-event';
import { createBudgetLine } from '../../core/finance/create-budget-line';
import { deleteBudgetLine } from '../../core/finance/delete-budget-line';
import { deleteStay } from '../../core/logistics/delete-stay';
import { deleteTravel } from '../../core/logistics/delete-travel';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { deleteSession } from '../../core/programme/delete-session';
import { createShareLink } from '../../core/sharekit/create-share-link';
import { deleteShareLink } from '../../core/sharekit/delete-share-link';
import { captureLead } from '../../core/sponsors/capture-lead';
import { createSponsor } from '../../core/sponsors/create-sponsor';
import { createSponsorLevel } from '../../core/sponsors/create-sponsor-level';
import { deleteLead } from '../../core/sponsors/delete-lead';
import { deleteSponsor } from '../../core/sponsors/delete-sponsor';
import { deleteSponsorLevel } from '../../core/sponsors/delete-sponsor-level';
import { updateSponsor } from '../../core/sponsors/update-sponsor';
import { createSurvey } from '../../core/surveys/create-survey';
import { deleteSurvey } from '../../core/surveys/delete-survey';
import { rateSession } from '../../core/surveys/rate-session';
import { submitSurveyAnswer } from '../../core/surveys/submit-survey-answer';
import { createAddOn } from '../../core/tickets/create-add-on';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { deleteAddOn } from '../../core/tickets/delete-add-on';
import { deleteDiscountCode } from '../../core/tickets/delete-discount-code';
import { deleteTicketType } from '../../core/tickets/delete-ticket-type';
import { deleteWebhook } from '../../core/webhooks/endpoints/delete-webhook';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { raceRows } from '../support/race-rows';

const { call, heldOrInTurn: held } = raceHarness('Write beside removal');

type Ids = Record<string, string> & { ticketTypeId?: string };

interface Case {
  /** The write and the row it names, as the case's title says. */
  write: string;
  /** Makes the row (and what the write needs) at a fresh event. */
  make(eventId: string): Promise<Ids>;
  remove: [AnyOperation, (ids: Ids) => Record<string, unknown>];
  writing: [AnyOperation, (ids: Ids) => Record<string, unknown>];
  /** What the write answers for a row that is not there. */
  gone: string;
}

async function visitorAt(eventId: string): Promise<Ids> {
  const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day' });
  const { attendees } = await call(registerAttendees, {
    eventId,
    attendees: [{ ticketTypeId, firstName: 'Ada', lastName: 'Visitor', email: 'ada@example.org' }],
  });
  return { eventId, ticketTypeId, attendeeId: attendees[0].attendeeId };
}

const rows = raceRows(call);

const sessionAt = async (eventId: string): Promise<string> =>
  String((await rows.sessionAt(eventId)).sessionId);

const person = (ticketTypeId: string, more: Record<string, unknown> = {}) => ({
  ticketTypeId,
  firstName: 'Bo',
  lastName: 'Racer',
  email: 'bo@example.org',
  ...more,
});

const communityAt = async (): Promise<string> => String((await rows.communityAt('open')).communityId);

const cases: Case[] = [
  {
    write: 'a first capture of a lead for a sponsor',
    make: async (eventId) => ({
      ...(await visitorAt(eventId)),
      sponsorId: (await call(createSponsor, { eventId, name: 'Booth' })).sponsorId,
    }),
    remove: [deleteSponsor, ({ eventId, sponsorId }) => ({ eventId, sponsorId, withLeads: true })],
    writing: [
      captureLead,
      ({ eventId, sponsorId, attendeeId }) => ({ eventId, sponsorId, attendeeId, consent: true, rating: 2 }),
    ],
    gone: 'notFound',
  },
  {
    write: 'a later capture of a lead for a sponsor',
    make: async (eventId) => {
      const ids = await visitorAt(eventId);
      const { sponsorId } = await call(createSponsor, { eventId, name: 'Booth' });
      await call(captureLead, { eventId, sponsorId, attendeeId: ids.attendeeId, consent: true, rating: 2 });
      return { ...ids, sponsorId };
    },
    remove: [deleteSponsor, ({ eventId, sponsorId }) => ({ eventId, sponsorId, withLeads: true })],
    writing: [
      captureLead,
      ({ eventId, sponsorId, attendeeId }) => ({ eventId, sponsorId, attendeeId, consent: true }),
    ],
    gone: 'notFound',
  },
  {
    write: 'a lead naming the session it came from',
    make: async (eventId) => ({
      ...(await visitorAt(eventId)),
      sponsorId: (await call(createSponsor, { eventId, name: 'Booth' })).sponsorId,
      sessionId: await sessionAt(eventId),
    }),
    remove: [deleteSession, ({ eventId, sessionId }) => ({ eventId, sessionId })],
    writing: [
      captureLead,
      ({ eventId, sponsorId, attendeeId, sessionId }) => ({
        eventId,
        sponsorId,
        attendeeId,
        consent: true,
        rating: 2,
        origin: 'session',
        attendedSessionId: sessionId,
      }),
    ],
    gone: 'invalidRequest',
  },
  {
    write: 'a new sponsor given a level',
    make: async (eventId) => ({
      eventId,
      levelId: (await call(createSponsorLevel, { eventId, name: 'Gold', rank: 1, colour: '#ffd700' }))
        .levelId,
    }),
    remove: [deleteSponsorLevel, ({ eventId, levelId }) => ({ eventId, levelId })],
    writing: [createSponsor, ({ eventId, levelId }) => ({ eventId, name: 'Booth', levelId })],
    gone: 'invalidRequest',
  },
  {
    write: 'a sponsor moved to a level',
    make: async (eventId) => ({
      eventId,
      levelId: (await call(createSponsorLevel, { eventId, name: 'Gold', rank: 1, colour: '#ffd700' }))
        .levelId,
      sponsorId: (await call(createSponsor, { eventId, name: 'Booth' })).sponsorId,
    }),
    remove: [deleteSponsorLevel, ({ eventId, levelId }) => ({ eventId, levelId })],
    writing: [updateSponsor, ({ eventId, sponsorId, levelId }) => ({ eventId, sponsorId, levelId })],
    gone: 'invalidRequest',
  },
  {
    write: 'a scan at a door',
    make: async (eventId) => ({
      ...(await visitorAt(eventId)),
      doorId: (await call(createDoor, { eventId, name: 'Side' })).doorId,
    }),
    remove: [deleteDoor, ({ eventId, doorId }) => ({ eventId, doorId })],
    writing: [checkInAttendee, ({ eventId, attendeeId, doorId }) => ({ eventId, attendeeId, doorId })],
    gone: 'noDoor',
  },
  {
    write: 'a scan of a ticket code at a door',
    make: async (eventId) => {
      const ids = await visitorAt(eventId);
      const { doorId } = await call(createDoor, { eventId, name: 'Side' });
      const attendee = await call(getAttendee, { eventId, attendeeId: ids.attendeeId });
      return { ...ids, doorId, ticketCode: attendee.ticketCode };
    },
    remove: [deleteDoor, ({ eventId, doorId }) => ({ eventId, doorId })],
    writing: [checkInByCode, ({ eventId, ticketCode, doorId }) => ({ eventId, ticketCode, doorId })],
    gone: 'noDoor',
  },
  {
    write: 'a registration for a ticket type',
    make: async (eventId) => ({
      eventId,
      ticketTypeId: (await call(createTicketType, { eventId, name: 'Day' })).ticketTypeId,
    }),
    remove: [deleteTicketType, ({ eventId, ticketTypeId }) => ({ eventId, ticketTypeId })],
    writing: [
      registerAttendees,
      ({ eventId, ticketTypeId }) => ({ eventId, attendees: [person(ticketTypeId!)] }),
    ],
    gone: 'unknownTicket',
  },
  {
    write: 'a registration with an add-on',
    make: async (eventId) => ({
      eventId,
      ticketTypeId: (await call(createTicketType, { eventId, name: 'Day' })).ticketTypeId,
      addOnId: (await call(createAddOn, { eventId, name: 'Dinner' })).addOnId,
    }),
    remove: [deleteAddOn, ({ eventId, addOnId }) => ({ eventId, addOnId })],
    writing: [
      registerAttendees,
      ({ eventId, ticketTypeId, addOnId }) => ({
        eventId,
        attendees: [person(ticketTypeId!, { addOns: [{ addOnId }] })],
      }),
    ],
    gone: 'invalidRequest',
  },
  {
    write: 'a rating of a session',
    make: async (eventId) => ({ ...(await visitorAt(eventId)), sessionId: await sessionAt(eventId) }),
    remove: [deleteSession, ({ eventId, sessionId }) => ({ eventId, sessionId })],
    writing: [
      rateSession,
      ({ eventId, sessionId, attendeeId }) => ({ eventId, sessionId, attendeeId, stars: 4 }),
    ],
    gone: 'notFound',
  },
  {
    write: 'an answer to a survey',
    make: async (eventId) => ({
      ...(await visitorAt(eventId)),
      surveyId: (
        await call(createSurvey, {
          eventId,
          title: { en: 'The day' },
          questions: [{ id: 'overall', kind: 'rating', label: { en: 'The day' } }],
        })
      ).surveyId,
    }),
    remove: [deleteSurvey, ({ eventId, surveyId }) => ({ eventId, surveyId })],
    writing: [
      submitSurveyAnswer,
      ({ eventId, surveyId, attendeeId }) => ({ eventId, surveyId, attendeeId, answers: { overall: 4 } }),
    ],
    gone: 'notFound',
  },
  {
    write: 'a member joining a community',
    make: async () => ({ communityId: await communityAt() }),
    remove: [deleteCommunity, ({ communityId }) => ({ communityId })],
    writing: [joinCommunity, ({ communityId }) => ({ communityId, name: 'Fay', email: 'fay@example.org' })],
    gone: 'notFound',
  },
];

/** Removals whose second, held once it has read, must answer what it answers after the first. */
const removals: { row: string; make(eventId: string): Promise<Ids>; remove: AnyOperation; gone: string }[] = [
  {
    row: 'lead',
    make: async (eventId) => {
      const ids = await visitorAt(eventId);
      const { sponsorId } = await call(createSponsor, { eventId, name: 'Booth' });
      const { lead } = await call(captureLead, {
        eventId,
        sponsorId,
        attendeeId: ids.attendeeId,
        consent: true,
        rating: 2,
      });
      return { eventId, leadId: lead.leadId };
    },
    remove: deleteLead,
    gone: 'notFound',
  },
  {
    row: 'sponsor',
    make: async (eventId) => ({
      eventId,
      sponsorId: (await call(createSponsor, { eventId, name: 'Booth' })).sponsorId,
    }),
    remove: deleteSponsor,
    gone: 'notFound',
  },
  {
    row: 'budget line',
    make: async (eventId) => ({
      eventId,
      lineId: (
        await call(createBudgetLine, {
          eventId,
          category: 'venue',
          name: 'Hall',
          kind: 'cost',
          budgeted: 100,
        })
      ).lineId,
    }),
    remove: deleteBudgetLine,
    gone: 'notFound',
  },
  {
    row: 'door',
    make: async (eventId) => ({
      eventId,
      doorId: (await call(createDoor, { eventId, name: 'Side' })).doorId,
    }),
    remove: deleteDoor,
    gone: 'noDoor',
  },
  {
    row: 'community',
    make: async () => ({ communityId: await communityAt() }),
    remove: deleteCommunity,
    gone: 'notFound',
  },
  {
    row: 'stay',
    make: rows.stayAt,
    remove: deleteStay,
    gone: 'notFound',
  },
  {
    row: 'journey',
    make: rows.travelAt,
    remove: deleteTravel,
    gone: 'notFound',
  },
  {
    row: 'session',
    make: async (eventId) => ({ eventId, sessionId: await sessionAt(eventId) }),
    remove: deleteSession,
    gone: 'notFound',
  },
  {
    row: 'survey',
    make: async (eventId) => ({
      eventId,
      surveyId: (
        await call(createSurvey, {
          eventId,
          title: { en: 'The day' },
          questions: [{ id: 'overall', kind: 'rating', label: { en: 'The day' } }],
        })
      ).surveyId,
    }),
    remove: deleteSurvey,
    gone: 'notFound',
  },
  {
    row: 'webhook endpoint',
    make: () => rows.webhookAt(),
    remove: deleteWebhook,
    gone: 'notFound',
  },
  {
    row: 'ticket type',
    make: async (eventId) => ({
      eventId,
      ticketTypeId: (await call(createTicketType, { eventId, name: 'Day' })).ticketTypeId,
    }),
    remove: deleteTicketType,
    gone: 'notFound',
  },
  {
    row: 'add-on',
    make: async (eventId) => ({
      eventId,
      addOnId: (await call(createAddOn, { eventId, name: 'Dinner' })).addOnId,
    }),
    remove: deleteAddOn,
    gone: 'notFound',
  },
  {
    row: 'discount code',
    make: rows.discountCodeAt,
    remove: deleteDiscountCode,
    gone: 'notFound',
  },
  {
    row: 'share link',
    make: async (eventId) => {
      const { attendeeId } = await visitorAt(eventId);
      const { linkId } = await call(createShareLink, { eventId, channel: 'email', attendeeId });
      return { eventId, linkId };
    },
    remove: deleteShareLink,
    gone: 'notFound',
  },
];

describe('a write naming a row, held once it has read while a removal of the row runs to its end', () => {
  it.each(cases.map((c) => [c.write, c.gone, c] as const))('%s: the write answers %s', async (_w, _g, c) => {
    const { eventId } = await call(createEvent, eventBody());
    const ids = await c.make(eventId);
    const [written, removed] = await held([c.writing[0], c.writing[1](ids)], [c.remove[0], c.remove[1](ids)]);
    expect(removed).toMatchObject({ deleted: true });
    expect(written).toBe(c.gone);
  });

  it.each(removals.map((r) => [r.row, r.gone, r] as const))(
    'a %s removed twice: the second answers %s',
    async (_r, _g, r) => {
      const { eventId } = await call(createEvent, eventBody());
      const ids = await r.make(eventId);
      const [second, first] = await held([r.remove, ids], [r.remove, ids]);
      expect(first).toMatchObject({ deleted: true });
      expect(second).toBe(r.gone);
    },
  );
});
