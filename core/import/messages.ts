// The outbox messages of what an import created and changed: this file decides which changes
// happened (from the rows written and what they were before); each type's emitter, the same one the
// live use cases call, builds and records the message. lead.captured, member.joined/left,
// shift.signed_up/dropped, feedback.given, claim.*, stay.*, travel.changed, certificate.issued and
// content.published. Imported sales history sends no attendee or order messages (those people
// registered elsewhere, earlier).
import type { Db } from '../../db/connect';
import type { EventRow } from '../../db/schema';
import type { StayStatus } from '../../db/values';
import { certificateIssued } from '../certificates';
import { memberJoined, memberLeft } from '../communities';
import {
  crewMemberQuery,
  crewOnShifts,
  shiftDropped,
  shiftQuery,
  shiftSignedUp,
  shiftsOfCrew,
} from '../crew';
import { claimStatusEmitters } from '../finance';
import { stayChanged, stayStatusEmitters, travelChanged } from '../logistics';
import type { Ctx } from '../platform/context';
import { contentPublished } from '../programme';
import { leadCaptured, leadQuery } from '../sponsors';
import { feedbackGiven } from '../surveys';
import type { ImportTable, PlannedRow } from './plan';
import type { TableChanges, WriteReport } from './write';

type Changed = { id: string; before: PlannedRow | null };

/** Rows created (before null) and updated (with what they were), in that order. */
function changedRows(changes: TableChanges | undefined): Changed[] {
  if (!changes) return [];
  return [...changes.created.map((id) => ({ id, before: null })), ...changes.updated];
}

async function rowsById<T extends { id: string }>(rows: Promise<T[]>): Promise<Map<string, T>> {
  return new Map((await rows).map((r) => [r.id, r]));
}

/** The rows created and updated in one table, as they are now, each with what it was before. */
async function nowAndBefore<T extends { id: string }>(
  changes: TableChanges | undefined,
  load: (ids: string[]) => Promise<T[]>,
): Promise<{ row: T; before: PlannedRow | null }[]> {
  const changed = changedRows(changes);
  const rows = await rowsById(
    inChunks(
      changed.map((c) => c.id),
      load,
    ),
  );
  return changed.map((c) => ({ row: rows.get(c.id)!, before: c.before }));
}

const inChunks = async <T>(ids: string[], load: (some: string[]) => Promise<T[]>): Promise<T[]> => {
  const all: T[] = [];
  for (let i = 0; i < ids.length; i += 500) all.push(...(await load(ids.slice(i, i + 500))));
  return all;
};

/** The events of the import's rows, each read once. */
function eventReader(db: Db): (id: string) => Promise<EventRow> {
  const events = new Map<string, EventRow>();
  return async (id) => {
    let event = events.get(id);
    if (!event) {
      event = await db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      events.set(id, event);
    }
    return event;
  };
}

/** What each kind of message reads: the import's writes, and the events of its rows. */
interface Written {
  ctx: Ctx;
  db: Db;
  report: WriteReport;
  eventOf: (id: string) => Promise<EventRow>;
}

/** Sends each item's message in turn; answers how many were sent. */
async function sendEach<T>(items: T[], send: (item: T) => Promise<void>): Promise<number> {
  for (const item of items) await send(item);
  return items.length;
}

/** Sends the message of each changed row whose change makes one (`emitterOf` null: none). */
function sendChanges<T, E>(
  changed: { row: T; before: PlannedRow | null }[],
  emitterOf: (row: T, before: PlannedRow | null) => E | null,
  send: (emitter: E, row: T) => Promise<void>,
): Promise<number> {
  const moves = changed.flatMap(({ row, before }) => {
    const emitter = emitterOf(row, before);
    return emitter === null ? [] : [{ emitter, row }];
  });
  return sendEach(moves, ({ emitter, row }) => send(emitter, row));
}

const createdIds = (report: WriteReport, table: ImportTable): string[] =>
  report.tables.get(table)?.created ?? [];

export async function emitImportMessages(ctx: Ctx, report: WriteReport): Promise<number> {
  const written: Written = { ctx, db: ctx.db, report, eventOf: eventReader(ctx.db) };
  let sent = 0;
  // One after the other, in this order: an import's messages always leave in the same order.
  for (const emit of [
    emitLeadMessages,
    emitMemberMessages,
    emitShiftMessages,
    emitFeedbackMessages,
    emitClaimMessages,
    emitStayMessages,
    emitTravelMessages,
    emitCertificateMessages,
    emitContentMessages,
  ])
    sent += await emit(written);
  return sent;
}

/** lead.captured: a new lead the visitor agreed to share. */
async function emitLeadMessages({ ctx, db, report, eventOf }: Written): Promise<number> {
  const leads = await inChunks(createdIds(report, 'leads'), (some) =>
    leadQuery(db).where('leads.id', 'in', some).execute(),
  );
  return sendEach(
    leads.filter((lead) => lead.shared === 1 && lead.erased === 0),
    async (lead) => leadCaptured.emit(ctx, { event: await eventOf(lead.event_id), lead }),
  );
}

/**
 * member.joined / member.left: a member who became active, or an active one who left (someone
 * declined or withdrawing while waiting was never a member), as the live use cases send them.
 */
function memberEmitter(
  row: { status: string },
  before: PlannedRow | null,
): typeof memberJoined | typeof memberLeft | null {
  if (row.status === 'active' && before?.status !== 'active') return memberJoined;
  if (row.status === 'left' && before?.status === 'active') return memberLeft;
  return null;
}

async function emitMemberMessages({ ctx, db, report }: Written): Promise<number> {
  const members = await nowAndBefore(report.tables.get('community_members'), (some) =>
    db.selectFrom('community_members').selectAll().where('id', 'in', some).execute(),
  );
  return sendChanges(members, memberEmitter, async (emitter, member) => {
    const community = await db
      .selectFrom('communities')
      .selectAll()
      .where('id', '=', member.community_id)
      .executeTakeFirstOrThrow();
    await emitter.emit(ctx, { community, member });
  });
}

/** feedback.given: each new survey answer and session rating. */
async function emitFeedbackMessages({ ctx, db, report, eventOf }: Written): Promise<number> {
  const answers = await inChunks(createdIds(report, 'survey_responses'), (some) =>
    db
      .selectFrom('survey_responses')
      .innerJoin('surveys', 'surveys.id', 'survey_responses.survey_id')
      .select([
        'survey_responses.id',
        'survey_responses.survey_id',
        'survey_responses.submitted_utc',
        'surveys.event_id',
      ])
      .where('survey_responses.id', 'in', some)
      .execute(),
  );
  const sent = await sendEach(answers, async (answer) =>
    feedbackGiven.emit(ctx, { event: await eventOf(answer.event_id), answer }),
  );
  const ratings = await inChunks(createdIds(report, 'session_ratings'), (some) =>
    db.selectFrom('session_ratings').selectAll().where('id', 'in', some).execute(),
  );
  return (
    sent +
    (await sendEach(ratings, async (rating) =>
      feedbackGiven.emit(ctx, { event: await eventOf(rating.event_id), rating }),
    ))
  );
}

/** claim.*: a claim in (or moved to) submitted, approved or paid. */
async function emitClaimMessages({ ctx, db, report, eventOf }: Written): Promise<number> {
  const claims = await nowAndBefore(report.tables.get('expense_claims'), (some) =>
    db.selectFrom('expense_claims').selectAll().where('id', 'in', some).execute(),
  );
  return sendChanges(
    claims,
    (row, before) => (before?.status === row.status ? null : claimStatusEmitters[row.status]),
    async (emitter, claim) => emitter.emit(ctx, { event: await eventOf(claim.event_id), claim }),
  );
}

/** stay.*: requested, assigned or cancelled as its status moves there; changed when its details do. */
function stayEmitter(row: { status: StayStatus }, before: PlannedRow | null) {
  if (before === null) return row.status === 'cancelled' ? null : stayStatusEmitters[row.status];
  if (before.status !== row.status) return stayStatusEmitters[row.status];
  return row.status === 'cancelled' ? null : stayChanged;
}

async function emitStayMessages({ ctx, db, report, eventOf }: Written): Promise<number> {
  const stays = await nowAndBefore(report.tables.get('stays'), (some) =>
    db.selectFrom('stays').selectAll().where('id', 'in', some).execute(),
  );
  return sendChanges(stays, stayEmitter, async (emitter, stay) =>
    emitter.emit(ctx, { event: await eventOf(stay.event_id), stay }),
  );
}

/** travel.changed: a journey booked or changed. */
async function emitTravelMessages({ ctx, db, report, eventOf }: Written): Promise<number> {
  const journeys = await nowAndBefore(report.tables.get('travel'), (some) =>
    db.selectFrom('travel').selectAll().where('id', 'in', some).execute(),
  );
  return sendEach(journeys, async ({ row }) =>
    travelChanged.emit(ctx, { event: await eventOf(row.event_id), travel: row }),
  );
}

/** certificate.issued: a new one. */
async function emitCertificateMessages({ ctx, db, report, eventOf }: Written): Promise<number> {
  const certificates = await inChunks(createdIds(report, 'certificates'), (some) =>
    db.selectFrom('certificates').selectAll().where('id', 'in', some).execute(),
  );
  return sendEach(certificates, async (certificate) =>
    certificateIssued.emit(ctx, { event: await eventOf(certificate.event_id), certificate }),
  );
}

/** content.published: new content. */
async function emitContentMessages({ ctx, db, report, eventOf }: Written): Promise<number> {
  const contents = await inChunks(createdIds(report, 'published_content'), (some) =>
    db.selectFrom('published_content').selectAll().where('id', 'in', some).execute(),
  );
  return sendEach(contents, async (content) =>
    contentPublished.emit(ctx, { event: await eventOf(content.event_id), content }),
  );
}

/** shift.signed_up and shift.dropped: who the file added to a shift's crew, and who it took off. */
async function emitShiftMessages({ ctx, db, report, eventOf }: Written): Promise<number> {
  const changes = report.sets.get('shift_assignments');
  if (!changes || changes.added.length + changes.removed.length === 0) return 0;
  const moves = [
    ...changes.added.map((r) => ({ emitter: shiftSignedUp, row: r })),
    ...changes.removed.map((r) => ({ emitter: shiftDropped, row: r })),
  ];
  const shiftIds = [...new Set(moves.map((m) => String(m.row.shift_id)))];
  const crewIds = [...new Set(moves.map((m) => String(m.row.crew_member_id)))];
  const shifts = await rowsById(shiftQuery(db).where('shifts.id', 'in', shiftIds).execute());
  const crew = await rowsById(crewMemberQuery(db).where('crew_members.id', 'in', crewIds).execute());
  const onShifts = await crewOnShifts(db, shiftIds);
  const shiftsOf = await shiftsOfCrew(db, crewIds);
  for (const { emitter, row } of moves) {
    const shift = shifts.get(String(row.shift_id))!;
    const crewMember = crew.get(String(row.crew_member_id))!;
    await emitter.emit(ctx, {
      event: await eventOf(shift.event_id),
      shift,
      shiftCrewIds: onShifts.get(shift.id) ?? [],
      crewMember,
      memberShiftIds: shiftsOf.get(crewMember.id) ?? [],
    });
  }
  return moves.length;
}
