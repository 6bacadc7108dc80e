// A conditional write (REST If-Match, MCP ifMatch) beside another change of what its tag names. On
// PostgreSQL invoke checked the tag against a view read without a lock: with the other change
// written but not yet committed, the check passed on the view before it, the write then waited on
// the other's row lock in its handler and wrote over the change it was meant to be refused for
// (200 where 412 was due). Now invoke first holds what the tag names as the write will hold it
// (operation.ts IfMatch.hold, core/platform/pipeline/tagged-row.ts): the conditional write waits,
// reads the change and answers 412 preconditionFailed. Here the other change is held once it has
// written (before its activity entry) while the conditional write runs; every operation declaring
// ifMatch has its case. SQLite writes one call at a time, so there the change runs first, then the
// conditional write, which is refused all the same. The same cases then run as PATCH beside PATCH:
// two changes of different fields of one resource at once keep both (a change writes its row back
// whole from its read; on PostgreSQL invoke holds the row first, a tag sent or not).
import { describe, expect, it } from 'vitest';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { updateAttendee } from '../../core/attendees/update-attendee';
import { revokeCertificate } from '../../core/certificates/revoke-certificate';
import { updateCallForSpeakers } from '../../core/cfp/update-call';
import { updateSubmission } from '../../core/cfp/update-submission';
import { deleteDoor } from '../../core/checkin/delete-door';
import { updateDoor } from '../../core/checkin/update-door';
import { deleteCommunity } from '../../core/communities/delete-community';
import { setCommunityStatus } from '../../core/communities/set-community-status';
import { updateCommunity } from '../../core/communities/update-community';
import { deleteShift } from '../../core/crew/delete-shift';
import { removeCrewMember } from '../../core/crew/remove-crew-member';
import { updateCrewMember } from '../../core/crew/update-crew-member';
import { updateShift } from '../../core/crew/update-shift';
import { createEvent } from '../../core/events/create-event';
import { deleteEvent } from '../../core/events/delete-event';
import { updateEvent } from '../../core/events/update-event';
import { updateSignUp } from '../../core/events/update-sign-up';
import { approveClaim } from '../../core/finance/approve-claim';
import { declineClaim } from '../../core/finance/decline-claim';
import { deleteBudgetLine } from '../../core/finance/delete-budget-line';
import { payClaim } from '../../core/finance/pay-claim';
import { updateBudgetLine } from '../../core/finance/update-budget-line';
import { updateInvoicing } from '../../core/finance/update-invoicing';
import { assignStay } from '../../core/logistics/assign-stay';
import { cancelStay } from '../../core/logistics/cancel-stay';
import { cancelTravel } from '../../core/logistics/cancel-travel';
import { deleteStay } from '../../core/logistics/delete-stay';
import { deleteTravel } from '../../core/logistics/delete-travel';
import { updateStay } from '../../core/logistics/update-stay';
import { updateTravel } from '../../core/logistics/update-travel';
import { invoke } from '../../core/platform/pipeline/invoke';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { isProblem } from '../../core/platform/problems';
import { deleteRoom } from '../../core/programme/delete-room';
import { deleteSession } from '../../core/programme/delete-session';
import { deleteSpeaker } from '../../core/programme/delete-speaker';
import { deleteTrack } from '../../core/programme/delete-track';
import { unpublishContent } from '../../core/programme/unpublish-content';
import { updateContent } from '../../core/programme/update-content';
import { updateRoom } from '../../core/programme/update-room';
import { updateSession } from '../../core/programme/update-session';
import { updateSpeaker } from '../../core/programme/update-speaker';
import { updateTrack } from '../../core/programme/update-track';
import { deleteShareLink } from '../../core/sharekit/delete-share-link';
import { deleteLead } from '../../core/sponsors/delete-lead';
import { deleteSponsor } from '../../core/sponsors/delete-sponsor';
import { deleteSponsorLevel } from '../../core/sponsors/delete-sponsor-level';
import { updateLead } from '../../core/sponsors/update-lead';
import { updateSponsor } from '../../core/sponsors/update-sponsor';
import { updateSponsorLevel } from '../../core/sponsors/update-sponsor-level';
import { deleteSurvey } from '../../core/surveys/delete-survey';
import { updateSurvey } from '../../core/surveys/update-survey';
import { createAddOn } from '../../core/tickets/create-add-on';
import { deleteAddOn } from '../../core/tickets/delete-add-on';
import { deleteDiscountCode } from '../../core/tickets/delete-discount-code';
import { deleteTicketType } from '../../core/tickets/delete-ticket-type';
import { updateDiscountCode } from '../../core/tickets/update-discount-code';
import { updateTicketType } from '../../core/tickets/update-ticket-type';
import { updateWebhook } from '../../core/webhooks/endpoints/update-webhook';
import { tools } from '../../mcp/tools';
import { routes } from '../../rest/routes';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { type Names, raceRows } from '../support/race-rows';

const { call, waitsFor, ctx } = raceHarness('Tag beside change');

interface Case {
  /** The conditional write. */
  op: AnyOperation;
  /** Makes what the tag names at a fresh event; answers the ids naming it in a call. */
  make(eventId: string): Promise<Names>;
  /** The conditional write's input beyond the names. */
  input?: Record<string, unknown>;
  /** Another change of what the tag names, sent without a tag. */
  change(names: Names): [AnyOperation, unknown];
  /** Where the view shows the fields changed, when not at its top. */
  fields?(view: Record<string, unknown>): Record<string, unknown>;
}

/** A change held once it has read, before its first write (an update, or a settings row's upsert). */
const firstUpdate = /^\s*(update|insert)\b/i;

/** The other change held once it has written, before its activity entry. */
const written = /^\s*insert into "workspace_activity"/i;

/** The tag of what `op` would change now, as a refusal of a stale one answers it. */
async function tagNow(op: AnyOperation, input: Record<string, unknown>): Promise<string> {
  const refused = await invoke(
    op,
    { ...ctx(), request: { ...ctx().request, ifMatch: '"stale"' } },
    input,
  ).catch((error: unknown) => error);
  if (!isProblem(refused) || refused.code !== 'preconditionFailed')
    throw new Error(`no tag: ${String(refused)}`);
  return String(refused.extras?.etag);
}

const rows = raceRows(call);

/** The ticket type an add-on's case registers with, by event. */
const dayOf = new Map<string, string>();

const eventItself = async (eventId: string): Promise<Names> => ({ eventId });

/** The change of a row by `update` with `changes`. */
const by =
  (update: AnyOperation, changes: Record<string, unknown>) =>
  (names: Names): [AnyOperation, unknown] => [update, { ...names, ...changes }];

const cases: Case[] = [
  {
    op: revokeCertificate,
    make: rows.certificateAt,
    change: by(revokeCertificate, {}),
  },
  {
    op: updateSponsor,
    make: rows.sponsorAt,
    input: { booth: 'B12' },
    change: by(updateSponsor, { name: 'Big booth' }),
  },
  { op: deleteSponsor, make: rows.sponsorAt, change: by(updateSponsor, { name: 'Big booth' }) },
  {
    op: updateSponsorLevel,
    make: rows.levelAt,
    input: { colour: '#e5e4e2' },
    change: by(updateSponsorLevel, { name: 'Platinum' }),
  },
  { op: deleteSponsorLevel, make: rows.levelAt, change: by(updateSponsorLevel, { name: 'Platinum' }) },
  {
    op: updateLead,
    make: rows.leadAt,
    input: { note: 'Call back.' },
    change: by(updateLead, { rating: 3 }),
    fields: (view) => view.lead as Record<string, unknown>,
  },
  { op: deleteLead, make: rows.leadAt, change: by(updateLead, { rating: 3 }) },
  {
    op: updateBudgetLine,
    make: rows.budgetLineAt,
    input: { category: 'rooms' },
    change: by(updateBudgetLine, { name: 'Main hall' }),
  },
  { op: deleteBudgetLine, make: rows.budgetLineAt, change: by(updateBudgetLine, { name: 'Main hall' }) },
  { op: approveClaim, make: (eventId) => rows.claimAt(eventId), change: by(declineClaim, {}) },
  { op: declineClaim, make: (eventId) => rows.claimAt(eventId), change: by(approveClaim, {}) },
  { op: payClaim, make: (eventId) => rows.claimAt(eventId, true), change: by(payClaim, {}) },
  {
    op: updateInvoicing,
    make: eventItself,
    input: { prefix: 'B-' },
    change: by(updateInvoicing, { sellerName: 'Racing Ltd' }),
  },
  {
    op: updateSignUp,
    make: eventItself,
    input: { publicForm: false },
    change: by(updateSignUp, { paymentInstructions: 'Pay at the door.' }),
  },
  {
    op: updateCallForSpeakers,
    make: eventItself,
    input: { formats: ['talk'] },
    change: by(updateCallForSpeakers, { closesUtc: '2027-03-01T00:00:00.000Z' }),
  },
  {
    op: updateEvent,
    make: eventItself,
    input: { name: 'Renamed' },
    change: by(updateEvent, { name: 'Other name' }),
  },
  { op: deleteEvent, make: eventItself, change: by(updateEvent, { name: 'Other name' }) },
  {
    op: updateDoor,
    make: rows.doorAt,
    input: { reentry: false },
    change: by(updateDoor, { name: 'Side gate' }),
  },
  { op: deleteDoor, make: rows.doorAt, change: by(updateDoor, { name: 'Side gate' }) },
  {
    op: updateAttendee,
    make: async (eventId) => ({ eventId, attendeeId: await rows.attendeeAt(eventId) }),
    input: { company: 'Racing Ltd' },
    change: by(updateAttendee, { jobTitle: 'Timekeeper' }),
  },
  {
    op: updateCommunity,
    make: () => rows.communityAt(),
    input: { city: 'Ghent' },
    change: by(updateCommunity, { name: 'Fast racers' }),
  },
  {
    op: setCommunityStatus,
    make: () => rows.communityAt(),
    input: { status: 'published' },
    change: by(updateCommunity, { name: 'Fast racers' }),
  },
  {
    op: deleteCommunity,
    make: () => rows.communityAt(),
    change: by(updateCommunity, { name: 'Fast racers' }),
  },
  { op: updateShift, make: rows.shiftAt, input: { role: 'bar' }, change: by(updateShift, { needed: 3 }) },
  { op: deleteShift, make: rows.shiftAt, change: by(updateShift, { needed: 3 }) },
  {
    op: updateCrewMember,
    make: rows.crewMemberAt,
    input: { phone: '+4712345678' },
    change: by(updateCrewMember, { name: 'Ed E.' }),
  },
  { op: removeCrewMember, make: rows.crewMemberAt, change: by(updateCrewMember, { name: 'Ed E.' }) },
  {
    op: updateStay,
    make: rows.stayAt,
    input: { checkInDate: '2027-04-29' },
    change: by(updateStay, { checkOutDate: '2027-05-03' }),
  },
  {
    op: assignStay,
    make: rows.stayAt,
    input: { hotel: 'Grand' },
    change: by(updateStay, { checkOutDate: '2027-05-03' }),
  },
  { op: cancelStay, make: rows.stayAt, change: by(updateStay, { checkOutDate: '2027-05-03' }) },
  { op: deleteStay, make: rows.stayAt, change: by(updateStay, { checkOutDate: '2027-05-03' }) },
  {
    op: updateTravel,
    make: rows.travelAt,
    input: { to: 'Oslo lufthavn' },
    change: by(updateTravel, { reference: 'NSB-4711' }),
  },
  { op: cancelTravel, make: rows.travelAt, change: by(updateTravel, { reference: 'NSB-4711' }) },
  { op: deleteTravel, make: rows.travelAt, change: by(updateTravel, { reference: 'NSB-4711' }) },
  {
    op: updateSession,
    make: rows.sessionAt,
    input: { summary: 'Why locks.' },
    change: by(updateSession, { title: 'Opening' }),
  },
  { op: deleteSession, make: rows.sessionAt, change: by(updateSession, { title: 'Opening' }) },
  {
    op: updateContent,
    make: rows.contentAt,
    input: { url: 'https://example.org/slides-2.pdf' },
    change: by(updateContent, { title: 'The slides' }),
  },
  { op: unpublishContent, make: rows.contentAt, change: by(updateContent, { title: 'The slides' }) },
  {
    op: updateSpeaker,
    make: rows.speakerAt,
    input: { bio: 'Writes locks.' },
    change: by(updateSpeaker, { name: 'Ada L.' }),
  },
  {
    op: deleteSpeaker,
    make: rows.speakerAt,
    change: by(updateSpeaker, { name: 'Ada L.' }),
  },
  {
    op: updateRoom,
    make: rows.roomAt,
    input: { capacity: 80 },
    change: by(updateRoom, { name: 'Great hall' }),
  },
  {
    op: deleteRoom,
    make: rows.roomAt,
    change: by(updateRoom, { name: 'Great hall' }),
  },
  {
    op: updateTrack,
    make: rows.trackAt,
    input: { colour: '#445566' },
    change: by(updateTrack, { name: 'Big data' }),
  },
  {
    op: deleteTrack,
    make: rows.trackAt,
    change: by(updateTrack, { name: 'Big data' }),
  },
  {
    op: updateSurvey,
    make: rows.surveyAt,
    input: { closesUtc: '2027-06-01T00:00:00.000Z' },
    change: by(updateSurvey, { title: { en: 'The whole day' } }),
  },
  { op: deleteSurvey, make: rows.surveyAt, change: by(updateSurvey, { title: { en: 'The whole day' } }) },
  {
    op: updateWebhook,
    make: rows.webhookAt,
    input: { url: 'https://receiver.example.org/tag-race-2' },
    change: by(updateWebhook, { description: 'CRM' }),
  },
  {
    op: updateDiscountCode,
    make: rows.discountCodeAt,
    input: { percent: 20 },
    change: by(updateDiscountCode, { maxUses: 5 }),
  },
  { op: deleteDiscountCode, make: rows.discountCodeAt, change: by(updateDiscountCode, { maxUses: 5 }) },
  {
    op: updateTicketType,
    make: async (eventId) => ({ eventId, ticketTypeId: await rows.ticketTypeAt(eventId) }),
    input: { name: 'Two days' },
    change: by(updateTicketType, { capacity: 50 }),
  },
  {
    op: deleteTicketType,
    make: async (eventId) => ({ eventId, ticketTypeId: await rows.ticketTypeAt(eventId) }),
    change: by(updateTicketType, { capacity: 50 }),
  },
  {
    // Its places are its only change: a registration taking one.
    op: deleteAddOn,
    make: async (eventId) => {
      dayOf.set(eventId, await rows.ticketTypeAt(eventId));
      return { eventId, addOnId: (await call(createAddOn, { eventId, name: 'Dinner' })).addOnId };
    },
    change: ({ eventId, addOnId }) => {
      const diner = { firstName: 'Bo', lastName: 'Diner', email: 'bo@example.org', addOns: [{ addOnId }] };
      return [
        registerAttendees,
        { eventId, attendees: [{ ticketTypeId: dayOf.get(String(eventId)), ...diner }] },
      ];
    },
  },
  {
    op: updateSubmission,
    make: rows.submissionAt,
    input: { abstract: 'Two writers, one row, one refused.' },
    change: by(updateSubmission, { title: 'Locks, in order' }),
  },
];

/**
 * Declaring ifMatch but without a case here: a share link's tag changes only when it goes, so a
 * removal beside a removal answers 404 either way.
 */
const noOtherChange = new Set([deleteShareLink.name]);

describe('a conditional write beside another change of what its tag names', () => {
  it('has a case for every operation that takes If-Match', () => {
    const conditional = new Set(
      [...routes.map((r) => r.operation), ...tools.map((t) => t.operation)]
        .filter((op) => op.ifMatch)
        .map((op) => op.name),
    );
    const covered = new Set([...cases.map((c) => c.op.name), ...noOtherChange]);
    expect([...conditional].filter((name) => !covered.has(name)).sort()).toEqual([]);
  });

  it.each(cases.map((c) => [c.op.name, c] as const))(
    '%s: waits for the change, then is refused with 412 preconditionFailed',
    async (_name, { op, make, input, change }) => {
      const { eventId } = await call(createEvent, eventBody());
      const names = await make(eventId);
      const conditional = { ...names, ...input };
      const tag = await tagNow(op, conditional);
      const [changed, refused] = await waitsFor(change(names), written, (base) =>
        invoke(op, { ...base, request: { ...base.request, ifMatch: tag } }, conditional).then(
          (done) => done.data,
        ),
      );
      expect(typeof changed, `the change answered ${JSON.stringify(changed)}`).toBe('object');
      expect(refused).toBe('preconditionFailed');
    },
  );
});

/** The PATCH routes: each changes a resource "sending only what changes" and writes it back whole. */
const patches = new Set(routes.filter((r) => r.method === 'PATCH').map((r) => r.operation.name));

describe('two changes of different fields of one resource at once (PATCH beside PATCH)', () => {
  it('every PATCH is a conditional write, so invoke holds its row before it reads it', () => {
    const unheld = routes
      .filter((r) => r.method === 'PATCH' && !r.operation.ifMatch)
      .map((r) => r.operation.name);
    expect(unheld).toEqual([]);
  });

  const patchCases = cases.filter((c) => patches.has(c.op.name) && c.change({})[0] === c.op);

  it('has a case for every PATCH', () => {
    const covered = new Set(patchCases.map((c) => c.op.name));
    expect([...patches].filter((name) => !covered.has(name)).sort()).toEqual([]);
  });

  // The one held once it has read, at its first update, while the other runs: on PostgreSQL the
  // other waits at invoke's hold, then reads the held one's change and keeps it.
  it.each(patchCases.map((c) => [c.op.name, c] as const))('%s: both changes are kept', async (_name, c) => {
    const { eventId } = await call(createEvent, eventBody());
    const names = await c.make(eventId);
    const [other, otherInput] = c.change(names);
    const [held, meanwhile] = await waitsFor([c.op, { ...names, ...c.input }], firstUpdate, [
      other,
      otherInput,
    ]);
    expect(typeof held, `the held change answered ${JSON.stringify(held)}`).toBe('object');
    expect(typeof meanwhile, `the other change answered ${JSON.stringify(meanwhile)}`).toBe('object');
    const current = (await c.op.ifMatch?.current(ctx(), names)) as Record<string, unknown>;
    const view = c.fields ? c.fields(current) : current;
    const sent = { ...c.input, ...(otherInput as Record<string, unknown>) };
    for (const [field, value] of Object.entries(sent))
      if (!(field in names)) expect(view[field], field).toEqual(value);
  });
});
