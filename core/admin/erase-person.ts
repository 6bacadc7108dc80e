// Erasure: a person deleted their data. Found by their email address, everything personal about
// them is removed wherever it is kept in the workspace, as each resource's declaration says
// (personal-resources.ts): the rows (tickets, orders they bought, pass holdings, speaker profiles,
// community memberships, crew members, call-for-speakers speakers, share-kit sharers, the buyer on invoices),
// every stored copy of those rows (outbox messages of any type, kept idempotent answers), and the
// summaries of activity-log entries about them. The rows say erased, and attendee.erased is sent
// for each of their tickets.
import { sql } from 'kysely';
import * as v from 'valibot';
import { forgetFreedBytes } from '../../db/forget-freed';
import { nextChangeSeq } from '../../db/sequence';
import { attendeeErased, emitForAttendees } from '../attendees/attendee-messages';
import { logChange } from '../platform/change-log';
import type { Ctx } from '../platform/context';
import { erasedColumns, type PersonalResource, scrubErased } from '../platform/personal-data';
import { problem } from '../platform/problems';
import { inTransaction } from './operator';
import { personalResources } from './personal-resources';

export interface ErasureCounts {
  attendees: number;
  orders: number;
  passHolders: number;
  speakers: number;
  communityMembers: number;
  leads: number;
  submissionSpeakers: number;
  sharers: number;
  crewMembers: number;
  invoices: number;
  stays: number;
  travel: number;
  expenseClaims: number;
  certificates: number;
}

const countNames: Record<string, keyof ErasureCounts> = {
  attendees: 'attendees',
  orders: 'orders',
  pass_holders: 'passHolders',
  speakers: 'speakers',
  community_members: 'communityMembers',
  leads: 'leads',
  submission_speakers: 'submissionSpeakers',
  sharers: 'sharers',
  crew_members: 'crewMembers',
  invoices: 'invoices',
  stays: 'stays',
  travel: 'travel',
  expense_claims: 'expenseClaims',
  certificates: 'certificates',
};

export async function erasePerson(
  operator: Ctx,
  who: { email?: string; attendeeId?: string },
): Promise<ErasureCounts> {
  if ((who.email === undefined) === (who.attendeeId === undefined))
    throw problem('invalidRequest', 'Give either an email or an attendee id.');
  if (who.email !== undefined && !v.is(v.pipe(v.string(), v.email()), who.email))
    throw problem('invalidRequest', 'Not an email address.');
  const counts = await inTransaction(operator, async (ctx) => {
    let email = who.email?.toLowerCase();
    if (who.attendeeId) {
      const row = await ctx.db
        .selectFrom('attendees')
        .select('email')
        .where('id', '=', who.attendeeId.toLowerCase())
        .where('workspace_id', '=', ctx.actor.workspaceId)
        .executeTakeFirst();
      if (!row) throw problem('attendeeNotFound', `No attendee ${who.attendeeId} in this workspace.`);
      email = row.email ?? undefined; // null: already erased
    }
    const counts: ErasureCounts = {
      attendees: 0,
      orders: 0,
      passHolders: 0,
      speakers: 0,
      communityMembers: 0,
      leads: 0,
      submissionSpeakers: 0,
      sharers: 0,
      crewMembers: 0,
      invoices: 0,
      stays: 0,
      travel: 0,
      expenseClaims: 0,
      certificates: 0,
    };
    const erasedIds = new Set<string>();
    let attendeeIds: string[] = [];
    if (email) {
      for (const declaration of personalResources) {
        const ids = await eraseRows(ctx, declaration, email, attendeeIds);
        const name = countNames[declaration.table];
        if (name) counts[name] += ids.length;
        for (const id of ids) erasedIds.add(id);
        if (declaration.table === 'attendees') attendeeIds = ids;
      }
    }
    await scrubStoredCopies(ctx, erasedIds);
    const attendees =
      attendeeIds.length === 0
        ? []
        : await ctx.db
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
    await logChange(ctx, {
      action: 'erasePerson',
      resourceType: 'person',
      resourceId: who.attendeeId ?? 'by-email',
      summary: `${counts.attendees} ticket(s), ${counts.orders} order(s), ${counts.passHolders} pass holder(s), ${counts.speakers} speaker(s), ${counts.communityMembers} community member(s), ${counts.leads} lead(s), ${counts.crewMembers} crew member(s), ${counts.submissionSpeakers} submission speaker(s), ${counts.sharers} sharer(s), ${counts.invoices} invoice(s), ${counts.stays} stay(s), ${counts.travel} journey(s), ${counts.expenseClaims} expense claim(s), ${counts.certificates} certificate(s)`,
    });
    return counts;
  });
  // The rows say erased; the database's files must not keep what they said either.
  await forgetFreedBytes(operator.services.db, tablesErasureChanges);
  return counts;
}

/** Every table an erasure may change: the personal resources, the rows showing them, stored copies. */
const tablesErasureChanges = [
  ...new Set([
    ...personalResources.flatMap((r) => [r.table, ...(r.shownIn ? [r.shownIn.table] : [])]),
    'outbox',
    'idempotency_records',
    'workspace_activity',
  ]),
];

/**
 * Nulls the declared columns of the person's rows of one table; answers the rows erased. Rows about
 * one of their tickets (a lead) are found by it too: the attendees come first in the list, so their
 * ids are known by then.
 */
async function eraseRows(
  ctx: Ctx,
  declaration: PersonalResource<string, string>,
  email: string,
  attendeeIds: string[],
): Promise<string[]> {
  const table = sql.table(declaration.table);
  const byTicket =
    declaration.attendeeColumn && attendeeIds.length > 0
      ? sql` or ${sql.ref(declaration.attendeeColumn)} in (${sql.join(attendeeIds)})`
      : sql``;
  const found = await sql<{ id: string }>`
    select id from ${table}
    where workspace_id = ${ctx.actor.workspaceId}
      and (${sql.ref(declaration.emailColumn)} = ${email}${byTicket})
    order by id`.execute(ctx.db);
  const nulls = sql.join(erasedColumns(declaration).map((c) => sql`${sql.ref(c)} = null`));
  const now = ctx.clock.now().toISOString();
  for (const row of found.rows) {
    await sql`
      update ${table} set ${nulls}, erased = 1, updated_utc = ${now}, change_seq = ${await nextChangeSeq(ctx.db)}
      where id = ${row.id}`.execute(ctx.db);
  }
  if (declaration.shownIn && found.rows.length > 0) await touchShownIn(ctx, declaration, found.rows, now);
  return found.rows.map((r) => r.id);
}

/** The rows that show the erased ones (a submission its speakers) change with them, for updatedSince. */
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

/**
 * Every stored copy of the erased rows: outbox messages (of every type), answers kept for
 * idempotent retries, and the summaries of activity-log entries about those rows.
 */
async function scrubStoredCopies(ctx: Ctx, erasedIds: Set<string>): Promise<void> {
  if (erasedIds.size === 0) return;
  const ids = [...erasedIds];
  const workspaceId = ctx.actor.workspaceId;
  for (let i = 0; i < ids.length; i += 50) {
    const some = ids.slice(i, i + 50);
    const mentions = (column: string) =>
      sql<boolean>`(${sql.join(
        some.map((id) => sql`${sql.ref(column)} like ${`%${id}%`}`),
        sql` or `,
      )})`;
    const outbox = await ctx.db
      .selectFrom('outbox')
      .select(['id', 'payload as document'])
      .where('workspace_id', '=', workspaceId)
      .where(mentions('payload'))
      .execute();
    await scrubEach(outbox, erasedIds, (m, payload) =>
      ctx.db.updateTable('outbox').set({ payload }).where('id', '=', m.id).execute(),
    );
    const answers = await ctx.db
      .selectFrom('idempotency_records')
      .select(['api_key_id', 'idempotency_key', 'response_body as document'])
      .where('workspace_id', '=', workspaceId)
      .where(mentions('response_body'))
      .execute();
    await scrubEach(answers, erasedIds, (a, response_body) =>
      ctx.db
        .updateTable('idempotency_records')
        .set({ response_body })
        .where('api_key_id', '=', a.api_key_id)
        .where('idempotency_key', '=', a.idempotency_key)
        .execute(),
    );
    await ctx.db
      .updateTable('workspace_activity')
      .set({ summary: null })
      .where('workspace_id', '=', workspaceId)
      .where('resource_id', 'in', some)
      .execute();
  }
}

/** Rewrites each stored JSON document that held an erased person, without them. */
async function scrubEach<R extends { document: string }>(
  rows: R[],
  erasedIds: Set<string>,
  save: (row: R, scrubbed: string) => Promise<unknown>,
): Promise<void> {
  for (const row of rows) {
    const document = JSON.parse(row.document) as unknown;
    if (scrubErased(document, personalResources, erasedIds)) await save(row, JSON.stringify(document));
  }
}
