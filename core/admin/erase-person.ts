// Erasure: a person deleted their data. Found by their email address, everything personal about
// them is removed wherever it is kept in the workspace, as each resource's declaration says
// (personal-resources.ts): the rows (tickets, orders they bought, pass holdings, speaker profiles,
// community memberships, crew members, call-for-speakers speakers, share-kit sharers, the buyer on invoices),
// the link of their survey answers and session ratings to them (the answers stay, anonymous), every stored copy of those rows (outbox messages of any type, kept idempotent answers), and the
// summaries of activity-log entries about them. The rows say erased, and attendee.erased is sent
// for each of their tickets.
import { sql } from 'kysely';
import * as v from 'valibot';
import { searchStructures } from '../../db/attendee-search';
import { forgetFreedBytes } from '../../db/forget-freed';
import { nextChangeSeq } from '../../db/sequence';
import { attendeeErased, emitForAttendees } from '../attendees';
import { cancelErasedMail } from '../mail';
import type { Ctx } from '../platform/context';
import type { FieldErrors } from '../platform/field-errors';
import { defineOperation } from '../platform/pipeline/operation';
import { type AttendeeLink, erasedColumns, type PersonalResource } from '../platform/pipeline/personal-data';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import type { Services } from '../platform/services';
import {
  countName,
  type ErasureCounts,
  erasureCountsSchema,
  erasureSummary,
  noneErased,
} from './erasure-counts';
import { holdWorkspaceEvents, lockOrdersOf, refuseOrdersPlacedSince } from './erasure-locks';
import { invokeAsOperator } from './operator';
import { attendeeLinks, personalResources } from './personal-resources';
import { scrubStoredCopies } from './scrub-stored-copies';

export type { ErasureCounts };

/** What both ways of erasing share: the operator's command and the API's extension operation. */
const erasure = {
  effect: 'destructive',
  repeatable: true,
  activity: {
    resourceType: 'person',
    resourceId: (who: { attendeeId?: string }) => who.attendeeId ?? 'by-email',
    summary: (_who: unknown, counts: ErasureCounts) => erasureSummary(counts),
  },
  problems: ['attendeeNotFound'],
  input: v.object({
    email: v.optional(
      v.pipe(v.string(), v.email('Not an email address.'), v.description("The person's email address.")),
    ),
    attendeeId: v.optional(uuid("One of the person's attendee ids.")),
  }),
  rules(input: { email?: unknown; attendeeId?: unknown }, errors: FieldErrors) {
    if ((input.email === undefined) === (input.attendeeId === undefined))
      errors.add('', 'Give either an email or an attendee id.');
  },
  output: erasureCountsSchema,
  handler: eraseEverywhere,
  // The rows say erased; the database's files must not keep what they said either.
  afterCommit: (services: Services) => forgetFreedBytes(services.db, tablesErasureChanges),
} as const;

const whatItDoes =
  "Erases a person's data everywhere in the workspace, found by their email or one of their attendee ids, stored copies included; sends attendee.erased per ticket. Answers the rows erased per resource.";

export const erasePersonOperation = defineOperation({
  ...erasure,
  name: 'erasePerson',
  title: "Erase a person's data",
  description: `${whatItDoes} (tessera person erase)`,
  operator: true,
  scope: 'any',
});

/** The same erasure through the API, for an organiser answering a person's request. */
export const erasePersonDataOperation = defineOperation({
  ...erasure,
  name: 'erasePersonData',
  title: "Erase a person's data at their request",
  description: `${whatItDoes} Cannot be undone. Needs people:write.`,
  scope: 'people:write',
  extension: true,
});

async function eraseEverywhere(
  ctx: Ctx,
  who: { email?: string; attendeeId?: string },
): Promise<ErasureCounts> {
  let email = who.email?.toLowerCase();
  if (who.attendeeId) {
    const row = await ctx.db
      .selectFrom('attendees')
      .select('email')
      .where('id', '=', who.attendeeId)
      .where('workspace_id', '=', ctx.actor.workspaceId)
      .executeTakeFirst();
    if (!row) throw problem('attendeeNotFound', `No attendee ${who.attendeeId} in this workspace.`);
    email = row.email ?? undefined; // null: already erased
  }
  const counts = noneErased();
  const erasedIds = new Set<string>();
  let attendeeIds: string[] = [];
  const erasedByTable = new Map<string, string[]>();
  if (email) {
    // The events first, then their orders before their tickets, as a write to an order takes them
    // (erasure-locks.ts).
    await holdWorkspaceEvents(ctx);
    const orders = await lockOrdersOf(ctx, email);
    for (const declaration of personalResources) {
      const ids = await eraseRows(ctx, declaration, email, attendeeIds, erasedByTable);
      counts[countName(declaration)] = ids.length;
      for (const id of ids) erasedIds.add(id);
      erasedByTable.set(declaration.table, ids);
      if (declaration.table === 'attendees') {
        attendeeIds = ids;
        await refuseOrdersPlacedSince(ctx, email, orders);
      }
    }
  }
  for (const link of attendeeLinks) counts[countName(link)] = await cutLinks(ctx, link, attendeeIds);
  await scrubStoredCopies(ctx, erasedIds);
  await cancelErasedMail(ctx, erasedByTable.get('mail_messages') ?? []);
  await emitErased(ctx, attendeeIds);
  return counts;
}

/** Erases a person as the operator, through invoke (which then lets the database forget the freed bytes). */
export async function erasePerson(
  operator: Ctx,
  who: { email?: string; attendeeId?: string },
): Promise<ErasureCounts> {
  return invokeAsOperator(erasePersonOperation, operator, who);
}

/** attendee.erased for each erased ticket, event by event. */
async function emitErased(ctx: Ctx, attendeeIds: string[]): Promise<void> {
  if (attendeeIds.length === 0) return;
  const attendees = await ctx.db
    .selectFrom('attendees')
    .select(['id', 'event_id'])
    .where('id', 'in', attendeeIds)
    .orderBy('id')
    .execute();
  const byEvent = new Map<string, string[]>();
  for (const a of attendees) byEvent.set(a.event_id, [...(byEvent.get(a.event_id) ?? []), a.id]);
  for (const [eventId, ids] of byEvent) {
    const event = await ctx.db
      .selectFrom('events')
      .select(['id', 'slug', 'name'])
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    await emitForAttendees(ctx, attendeeErased, event, ids);
  }
}

/** Every table an erasure may change: the personal resources, the rows showing them, stored copies. */
const tablesErasureChanges = [
  ...new Set([
    ...personalResources.flatMap((r) => [r.table, ...(r.shownIn ? [r.shownIn.table] : [])]),
    ...attendeeLinks.map((l) => l.table),
    'outbox',
    'idempotency_records',
    'workspace_activity',
    // PostgreSQL's copy of the searched values, kept by triggers (SQLite's is in its log, emptied).
    ...searchStructures.postgresTables,
  ]),
];

/**
 * Nulls the declared columns of the person's rows of one table; answers the rows erased. Rows about
 * one of their tickets (a lead) are found by it too: the attendees come first in the list, so their
 * ids are known by then; so are rows linked to their speaker or crew rows (a stay), listed earlier.
 */
async function eraseRows(
  ctx: Ctx,
  declaration: PersonalResource<string, string>,
  email: string,
  attendeeIds: string[],
  erasedByTable: ReadonlyMap<string, string[]>,
): Promise<string[]> {
  const table = sql.table(declaration.table);
  const byTicket =
    declaration.attendeeColumn && attendeeIds.length > 0
      ? sql` or ${sql.ref(declaration.attendeeColumn)} in (${sql.join(attendeeIds)})`
      : sql``;
  const byLinks = Object.entries(declaration.linkColumns ?? {}).flatMap(([linked, column]) => {
    const ids = erasedByTable.get(linked) ?? [];
    return ids.length > 0 ? [sql` or ${sql.ref(column!)} in (${sql.join(ids)})`] : [];
  });
  const byEmail = await emailCondition(ctx, declaration, email);
  const found = await sql<{ id: string }>`
    select id from ${table}
    where workspace_id = ${ctx.actor.workspaceId}
      and (${byEmail}${byTicket}${sql.join(byLinks, sql``)})
    order by id`.execute(ctx.db);
  const nulls = sql.join(erasedColumns(declaration).map((c) => sql`${sql.ref(c)} = null`));
  const now = ctx.clock.now().toISOString();
  if (declaration.shownIn && found.rows.length > 0) await touchShownIn(ctx, declaration, found.rows, now);
  for (const row of found.rows) {
    await sql`
      update ${table} set ${nulls}, erased = 1, updated_utc = ${now}, change_seq = ${await nextChangeSeq(ctx.db)}
      where id = ${row.id}`.execute(ctx.db);
  }
  return found.rows.map((r) => r.id);
}

/** The rows holding the address: by the column itself, or checked on the candidates a declaration names. */
async function emailCondition(ctx: Ctx, declaration: PersonalResource<string, string>, email: string) {
  const exactly = sql`${sql.ref(declaration.emailColumn)} = ${email}`;
  if (!declaration.emailCandidates) return exactly;
  const candidates = declaration.emailCandidates(ctx.db, ctx.actor.workspaceId, email);
  return sql`(${exactly} and id in (${candidates}))`;
}

/** Cuts the link of rows to the person's tickets; the rows stay, naming no one. Answers how many. */
async function cutLinks(ctx: Ctx, link: AttendeeLink, attendeeIds: string[]): Promise<number> {
  if (attendeeIds.length === 0) return 0;
  const cut = await sql`
    update ${sql.table(link.table)} set ${sql.ref(link.column)} = null
    where workspace_id = ${ctx.actor.workspaceId} and ${sql.ref(link.column)} in (${sql.join(attendeeIds)})`.execute(
    ctx.db,
  );
  return Number(cut.numAffectedRows ?? 0);
}

/**
 * The rows that show the erased ones (a submission its speakers) change with them, for updatedSince.
 * Touched first, in id order: a change of the submission takes its row, then its speakers'.
 */
async function touchShownIn(
  ctx: Ctx,
  declaration: PersonalResource<string, string>,
  erased: { id: string }[],
  now: string,
): Promise<void> {
  const { table, column } = declaration.shownIn!;
  const parents = await sql<{ parent: string }>`
    select distinct ${sql.ref(column)} as parent from ${sql.table(declaration.table)}
    where id in (${sql.join(erased.map((r) => r.id))})
    order by parent`.execute(ctx.db);
  for (const { parent } of parents.rows) {
    await sql`
      update ${sql.table(table)} set updated_utc = ${now}, change_seq = ${await nextChangeSeq(ctx.db)}
      where id = ${parent}`.execute(ctx.db);
  }
}
