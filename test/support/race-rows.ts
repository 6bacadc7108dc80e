// Rows the race tests make to race over, each at a fresh event (or in the workspace): made through the
// harness's ordinary write queue, answering the ids that name them in a call.
import { registerAttendees } from '../../core/attendees/register-attendees';
import { issueCertificate } from '../../core/certificates/issue-certificate';
import { createSubmission } from '../../core/cfp/create-submission';
import { createDoor } from '../../core/checkin/create-door';
import { createCommunity } from '../../core/communities/create-community';
import { createShift } from '../../core/crew/create-shift';
import { inviteCrewMember } from '../../core/crew/invite-crew-member';
import { approveClaim } from '../../core/finance/approve-claim';
import { createBudgetLine } from '../../core/finance/create-budget-line';
import { submitClaim } from '../../core/finance/submit-claim';
import { bookTravel } from '../../core/logistics/book-travel';
import { requestStay } from '../../core/logistics/request-stay';
import { createRoom } from '../../core/programme/create-room';
import { createSession } from '../../core/programme/create-session';
import { createSpeaker } from '../../core/programme/create-speaker';
import { createTrack } from '../../core/programme/create-track';
import { publishContent } from '../../core/programme/publish-content';
import { captureLead } from '../../core/sponsors/capture-lead';
import { createSponsor } from '../../core/sponsors/create-sponsor';
import { createSponsorLevel } from '../../core/sponsors/create-sponsor-level';
import { createSurvey } from '../../core/surveys/create-survey';
import { createDiscountCode } from '../../core/tickets/create-discount-code';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { createWebhook } from '../../core/webhooks/endpoints/create-webhook';
import type { RaceHarness } from './race-harness';

/** The ids naming a row in a call. */
export type Names = Record<string, string>;

/** The makers, each calling through `call`. */
export function raceRows(call: RaceHarness['call']) {
  const ticketTypeAt = async (eventId: string): Promise<string> =>
    (await call(createTicketType, { eventId, name: 'Day', capacity: 100 })).ticketTypeId;

  async function attendeeAt(eventId: string, email = 'ada@example.org'): Promise<string> {
    const { attendees } = await call(registerAttendees, {
      eventId,
      attendees: [
        { ticketTypeId: await ticketTypeAt(eventId), firstName: 'Ada', lastName: 'Visitor', email },
      ],
    });
    return attendees[0].attendeeId;
  }

  const sponsorAt = async (eventId: string): Promise<Names> => ({
    eventId,
    sponsorId: (await call(createSponsor, { eventId, name: 'Booth' })).sponsorId,
  });

  async function levelAt(eventId: string): Promise<Names> {
    const { levelId } = await call(createSponsorLevel, { eventId, name: 'Gold', rank: 1, colour: '#ffd700' });
    return { eventId, levelId };
  }

  async function leadAt(eventId: string): Promise<Names> {
    const attendeeId = await attendeeAt(eventId);
    const { sponsorId } = await sponsorAt(eventId);
    const { lead } = await call(captureLead, { eventId, sponsorId, attendeeId, consent: true, rating: 2 });
    return { eventId, leadId: lead.leadId };
  }

  async function budgetLineAt(eventId: string): Promise<Names> {
    const line = { eventId, category: 'venue', name: 'Hall', kind: 'cost', budgeted: 100 };
    return { eventId, lineId: (await call(createBudgetLine, line)).lineId };
  }

  async function claimAt(eventId: string, approved = false): Promise<Names> {
    const claim = { eventId, firstName: 'Ada', category: 'travel', amount: 80, currency: 'EUR' };
    const { claimId } = await call(submitClaim, claim);
    if (approved) await call(approveClaim, { eventId, claimId });
    return { eventId, claimId };
  }

  async function certificateAt(eventId: string): Promise<Names> {
    // A crew certificate: the ticket holder is on the crew by their email.
    const attendeeId = await attendeeAt(eventId, 'crew@example.org');
    await call(inviteCrewMember, { eventId, name: 'Ada', email: 'crew@example.org' });
    const { certificateId } = await call(issueCertificate, { eventId, attendeeId, kind: 'crew' });
    return { eventId, certificateId };
  }

  const doorAt = async (eventId: string): Promise<Names> => ({
    eventId,
    doorId: (await call(createDoor, { eventId, name: 'Gate' })).doorId,
  });

  let communities = 0;
  async function communityAt(joinPolicy?: 'open'): Promise<Names> {
    communities += 1;
    const { communityId } = await call(createCommunity, {
      slug: `race-${communities}-${Date.now()}`,
      name: 'Racers',
      timeZone: 'UTC',
      ...(joinPolicy ? { joinPolicy } : {}),
    });
    return { communityId };
  }

  async function shiftAt(eventId: string): Promise<Names> {
    const { shiftId } = await call(createShift, {
      eventId,
      role: 'door',
      place: { kind: 'area', name: 'Hall' },
      startsLocal: '2027-05-01T08:00',
      endsLocal: '2027-05-01T12:00',
      needed: 2,
    });
    return { eventId, shiftId };
  }

  const crewMemberAt = async (eventId: string): Promise<Names> => ({
    eventId,
    crewMemberId: (await call(inviteCrewMember, { eventId, name: 'Ed' })).crewMemberId,
  });

  async function stayAt(eventId: string): Promise<Names> {
    const nights = { checkInDate: '2027-04-30', checkOutDate: '2027-05-02' };
    return { eventId, stayId: (await call(requestStay, { eventId, firstName: 'Cy', ...nights })).stayId };
  }

  async function travelAt(eventId: string): Promise<Names> {
    const { travelId } = await call(bookTravel, {
      eventId,
      firstName: 'Di',
      mode: 'train',
      from: 'Bergen',
      to: 'Oslo S',
      departsUtc: '2027-04-30T06:00:00Z',
      arrivesUtc: '2027-04-30T13:00:00Z',
    });
    return { eventId, travelId };
  }

  async function sessionAt(eventId: string): Promise<Names> {
    const { sessionId } = await call(createSession, {
      eventId,
      title: 'Keynote',
      startsLocal: '2027-05-01T10:00',
      endsLocal: '2027-05-01T11:00',
    });
    return { eventId, sessionId };
  }

  async function contentAt(eventId: string): Promise<Names> {
    const content = { eventId, kind: 'slides', title: 'Slides', url: 'https://example.org/slides.pdf' };
    return { eventId, contentId: (await call(publishContent, content)).contentId };
  }

  async function surveyAt(eventId: string): Promise<Names> {
    const { surveyId } = await call(createSurvey, {
      eventId,
      title: { en: 'The day' },
      questions: [{ id: 'overall', kind: 'rating', label: { en: 'The day' } }],
    });
    return { eventId, surveyId };
  }

  const discountCodeAt = async (eventId: string): Promise<Names> => ({
    eventId,
    discountCodeId: (await call(createDiscountCode, { eventId, code: 'RACE10', percent: 10 })).discountCodeId,
  });

  async function submissionAt(eventId: string): Promise<Names> {
    const { submissionId } = await call(createSubmission, {
      eventId,
      title: 'Locks',
      abstract: 'Two writers, one row.',
      format: 'talk',
      language: 'en',
      speakers: [{ name: 'Ada', email: 'ada@example.org' }],
    });
    return { eventId, submissionId };
  }

  const speakerAt = async (eventId: string): Promise<Names> => ({
    eventId,
    speakerId: (await call(createSpeaker, { eventId, name: 'Ada' })).speakerId,
  });

  const roomAt = async (eventId: string): Promise<Names> => ({
    eventId,
    roomId: (await call(createRoom, { eventId, name: 'Hall' })).roomId,
  });

  const trackAt = async (eventId: string): Promise<Names> => ({
    eventId,
    trackId: (await call(createTrack, { eventId, name: 'Data', colour: '#112233' })).trackId,
  });

  async function webhookAt(): Promise<Names> {
    const url = 'https://receiver.example.org/race';
    const { webhook } = await call(createWebhook, { url, eventTypes: ['attendee.registered'] });
    return { webhookId: webhook.webhookId };
  }

  return {
    ticketTypeAt,
    attendeeAt,
    sponsorAt,
    levelAt,
    leadAt,
    budgetLineAt,
    claimAt,
    certificateAt,
    doorAt,
    communityAt,
    shiftAt,
    crewMemberAt,
    stayAt,
    travelAt,
    sessionAt,
    contentAt,
    surveyAt,
    discountCodeAt,
    submissionAt,
    speakerAt,
    roomAt,
    trackAt,
    webhookAt,
  };
}
