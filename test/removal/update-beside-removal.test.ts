// A change to a row that another request removes at the same moment, each call having read before
// either writes (test/support/interleave.ts), on SQLite and PostgreSQL, for each change whose row has
// a removal. The change answers as usual when it wrote first, else what it answers for a row that is
// not there (404 notFound; noDoor for a door, eventNotFound for an event), never a fault; the
// removal goes through and the row is gone; a refused change is not in the activity log, and on
// PostgreSQL one answered as usual is logged before the removal. Before
// core/platform/pipeline/update-row.ts the change's update, having waited for the removal's row
// lock, found nothing and the call went on: a fault from the reload (500: a sponsor, a ticket type),
// a refusal of another kind (a door, a shift), or the view of a row already gone.
import { describe, expect, it } from 'vitest';
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
import { deleteBudgetLine } from '../../core/finance/delete-budget-line';
import { updateBudgetLine } from '../../core/finance/update-budget-line';
import { assignStay } from '../../core/logistics/assign-stay';
import { cancelStay } from '../../core/logistics/cancel-stay';
import { cancelTravel } from '../../core/logistics/cancel-travel';
import { deleteStay } from '../../core/logistics/delete-stay';
import { deleteTravel } from '../../core/logistics/delete-travel';
import { updateStay } from '../../core/logistics/update-stay';
import { updateTravel } from '../../core/logistics/update-travel';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
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
import { deleteLead } from '../../core/sponsors/delete-lead';
import { deleteSponsor } from '../../core/sponsors/delete-sponsor';
import { deleteSponsorLevel } from '../../core/sponsors/delete-sponsor-level';
import { updateLead } from '../../core/sponsors/update-lead';
import { updateSponsor } from '../../core/sponsors/update-sponsor';
import { updateSponsorLevel } from '../../core/sponsors/update-sponsor-level';
import { deleteSurvey } from '../../core/surveys/delete-survey';
import { updateSurvey } from '../../core/surveys/update-survey';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { deleteDiscountCode } from '../../core/tickets/delete-discount-code';
import { deleteTicketType } from '../../core/tickets/delete-ticket-type';
import { updateDiscountCode } from '../../core/tickets/update-discount-code';
import { updateTicketType } from '../../core/tickets/update-ticket-type';
import { deleteWebhook } from '../../core/webhooks/endpoints/delete-webhook';
import { rotateWebhookSecret } from '../../core/webhooks/endpoints/rotate-webhook-secret';
import { updateWebhook } from '../../core/webhooks/endpoints/update-webhook';
import type { Database } from '../../db/schema';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { type Names, raceRows } from '../support/race-rows';
import { onPostgres } from '../support/test-store';

const { call, atOnce, db } = raceHarness('Update beside removal');

/** A row made for one case: the ids both calls take, and where it is kept. */
interface Made {
  ids: Record<string, string>;
  table: keyof Database;
  id: string;
}

interface Pair {
  /** The row, as the case's title names it. */
  row: string;
  /** Makes the row at a fresh event. */
  make(eventId: string): Promise<Made>;
  update: AnyOperation;
  changes: Record<string, unknown>;
  remove: AnyOperation;
  /** What the change answers for a row that is not there. */
  gone: string;
}

const made = (table: keyof Database, id: string, ids: Record<string, string>): Made => ({ table, id, ids });

const rows = raceRows(call);

/** A row made by one of the race rows' makers, kept in `table` and named by its `key`. */
const rowAt =
  (maker: (eventId: string) => Promise<Names>, table: keyof Database, key: string) =>
  async (eventId: string): Promise<Made> => {
    const ids = await maker(eventId);
    return made(table, String(ids[key]), ids);
  };

const leadAt = rowAt(rows.leadAt, 'leads', 'leadId');
const stayAt = rowAt(rows.stayAt, 'stays', 'stayId');
const travelAt = rowAt(rows.travelAt, 'travel', 'travelId');
const crewMemberAt = rowAt(rows.crewMemberAt, 'crew_members', 'crewMemberId');
const community = rowAt(() => rows.communityAt('open'), 'communities', 'communityId');
const webhook = rowAt(() => rows.webhookAt(), 'webhooks', 'webhookId');

const pairs: Pair[] = [
  {
    row: 'sponsor',
    make: rowAt(rows.sponsorAt, 'sponsors', 'sponsorId'),
    update: updateSponsor,
    changes: {},
    remove: deleteSponsor,
    gone: 'notFound',
  },
  {
    row: 'sponsor level',
    make: rowAt(rows.levelAt, 'sponsor_levels', 'levelId'),
    update: updateSponsorLevel,
    changes: { name: 'Platinum' },
    remove: deleteSponsorLevel,
    gone: 'notFound',
  },
  {
    row: 'lead',
    make: leadAt,
    update: updateLead,
    changes: { rating: 3 },
    remove: deleteLead,
    gone: 'notFound',
  },
  {
    row: 'door',
    make: rowAt(rows.doorAt, 'doors', 'doorId'),
    update: updateDoor,
    changes: { name: 'Side gate' },
    remove: deleteDoor,
    gone: 'noDoor',
  },
  {
    row: 'ticket type',
    make: async (eventId) => {
      const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day', capacity: 100 });
      return made('ticket_types', ticketTypeId, { eventId, ticketTypeId });
    },
    update: updateTicketType,
    changes: { capacity: 50 },
    remove: deleteTicketType,
    gone: 'notFound',
  },
  {
    row: 'discount code',
    make: rowAt(rows.discountCodeAt, 'discount_codes', 'discountCodeId'),
    update: updateDiscountCode,
    changes: { maxUses: 5 },
    remove: deleteDiscountCode,
    gone: 'notFound',
  },
  {
    row: 'session',
    make: rowAt(rows.sessionAt, 'sessions', 'sessionId'),
    update: updateSession,
    changes: { title: 'Opening keynote' },
    remove: deleteSession,
    gone: 'notFound',
  },
  {
    row: 'room',
    make: rowAt(rows.roomAt, 'rooms', 'roomId'),
    update: updateRoom,
    changes: { name: 'Great hall' },
    remove: deleteRoom,
    gone: 'notFound',
  },
  {
    row: 'track',
    make: rowAt(rows.trackAt, 'tracks', 'trackId'),
    update: updateTrack,
    changes: { name: 'Big data' },
    remove: deleteTrack,
    gone: 'notFound',
  },
  {
    row: 'speaker',
    make: rowAt(rows.speakerAt, 'speakers', 'speakerId'),
    update: updateSpeaker,
    changes: { name: 'Ada L.' },
    remove: deleteSpeaker,
    gone: 'notFound',
  },
  {
    row: 'published content',
    make: rowAt(rows.contentAt, 'published_content', 'contentId'),
    update: updateContent,
    changes: { title: 'The slides' },
    remove: unpublishContent,
    gone: 'notFound',
  },
  {
    row: 'crew member',
    make: crewMemberAt,
    update: updateCrewMember,
    changes: { name: 'Ed E.' },
    remove: removeCrewMember,
    gone: 'notFound',
  },
  {
    row: 'shift',
    make: rowAt(rows.shiftAt, 'shifts', 'shiftId'),
    update: updateShift,
    changes: { needed: 3 },
    remove: deleteShift,
    gone: 'notFound',
  },
  {
    row: 'stay (changed)',
    make: stayAt,
    update: updateStay,
    changes: { checkOutDate: '2027-05-03' },
    remove: deleteStay,
    gone: 'notFound',
  },
  {
    row: 'stay (assigned)',
    make: stayAt,
    update: assignStay,
    changes: { hotel: 'Grand' },
    remove: deleteStay,
    gone: 'notFound',
  },
  {
    row: 'stay (cancelled)',
    make: stayAt,
    update: cancelStay,
    changes: {},
    remove: deleteStay,
    gone: 'notFound',
  },
  {
    row: 'journey (changed)',
    make: travelAt,
    update: updateTravel,
    changes: { reference: 'NSB-4711' },
    remove: deleteTravel,
    gone: 'notFound',
  },
  {
    row: 'journey (cancelled)',
    make: travelAt,
    update: cancelTravel,
    changes: {},
    remove: deleteTravel,
    gone: 'notFound',
  },
  {
    row: 'survey',
    make: rowAt(rows.surveyAt, 'surveys', 'surveyId'),
    update: updateSurvey,
    changes: { title: { en: 'The whole day' } },
    remove: deleteSurvey,
    gone: 'notFound',
  },
  {
    row: 'budget line',
    make: rowAt(rows.budgetLineAt, 'budget_lines', 'lineId'),
    update: updateBudgetLine,
    changes: { name: 'Great hall' },
    remove: deleteBudgetLine,
    gone: 'notFound',
  },
  {
    row: 'community',
    make: community,
    update: updateCommunity,
    changes: { name: 'Fast racers' },
    remove: deleteCommunity,
    gone: 'notFound',
  },
  {
    row: 'community (published)',
    make: community,
    update: setCommunityStatus,
    changes: { status: 'published' },
    remove: deleteCommunity,
    gone: 'notFound',
  },
  {
    row: 'webhook endpoint',
    make: webhook,
    update: updateWebhook,
    changes: { description: 'Racing' },
    remove: deleteWebhook,
    gone: 'notFound',
  },
  {
    row: 'webhook endpoint (new secret)',
    make: webhook,
    update: rotateWebhookSecret,
    changes: {},
    remove: deleteWebhook,
    gone: 'notFound',
  },
  {
    row: 'draft event',
    make: async (eventId) => made('events', eventId, { eventId }),
    update: updateEvent,
    changes: { name: 'Renamed' },
    remove: deleteEvent,
    gone: 'eventNotFound',
  },
];

/** The activity log's entries of these calls about the row, in the order they were written. */
async function loggedAbout(id: string, calls: AnyOperation[]): Promise<string[]> {
  const rows = await db()
    .selectFrom('workspace_activity')
    .select('action')
    .where('resource_id', '=', id)
    .where(
      'action',
      'in',
      calls.map((c) => c.name),
    )
    .orderBy('id')
    .execute();
  return rows.map((r) => r.action);
}

describe('a change and a removal of the same row that have both read before either writes', () => {
  it.each(pairs.map((pair) => [pair.row, pair.gone, pair] as const))(
    'a %s: the change answers as usual or %s, the removal goes through',
    async (_row, _gone, pair) => {
      const { eventId } = await call(createEvent, eventBody());
      const { ids, table, id } = await pair.make(eventId);
      const [changed, removed] = await atOnce([pair.update, { ...ids, ...pair.changes }], [pair.remove, ids]);
      if (typeof changed === 'string') expect(changed).toBe(pair.gone);
      else expect(JSON.stringify(changed), 'its usual answer, naming the row').toContain(id);
      expect(removed).toMatchObject({ deleted: true });
      const left = await db()
        .selectFrom(table as 'sponsors')
        .select('id')
        .where('id', '=', id)
        .execute();
      expect(left).toEqual([]);

      const log = await loggedAbout(id, [pair.update, pair.remove]);
      if (typeof changed === 'string')
        expect(log, 'a refused change is not logged').toEqual([pair.remove.name]);
      // On PostgreSQL the removal waits for a change that holds the row, so a change answered as
      // usual is logged first; one logged after the removal changed a row already gone. On SQLite
      // the calls' statements interleave outside transactions, so the order says nothing there.
      else if (onPostgres)
        expect(log, 'changed before the removal').toEqual([pair.update.name, pair.remove.name]);
      else expect(log.sort()).toEqual([pair.update.name, pair.remove.name].sort());
    },
  );
});
