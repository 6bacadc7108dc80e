// Shared list machinery: HMAC-signed cursors bound to the list and its filters, limit 1..500
// (default 100), updatedSince, and the legacy page/pageSize/sort parameters some lists keep.
// Positions are keyset positions, so a cursor never skips or repeats a row while rows change.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import * as v from 'valibot';
import { inIndexOrder, isPostgres } from '../../../db/dialect';
import { type FeedPlaces, feedPlaces, settledChanges } from '../../../db/sequence';
import type { Ctx } from '../context';
import { problem } from '../problems';
import { oneLine } from '../schemas';
import { parseInstant } from '../time';

export const maxLimit = 500;
export const defaultLimit = 100;

export const cursorFields = {
  cursor: v.optional(
    v.pipe(
      v.string(),
      oneLine,
      v.description('Pass nextCursor exactly as returned, with the same filters. Omit for the first page.'),
    ),
  ),
  limit: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(maxLimit),
      v.description('Page size, 1 to 500 (default 100). A larger value is refused with invalidRequest.'),
    ),
  ),
  updatedSince: v.optional(
    v.pipe(
      v.string(),
      v.description(
        'Only what changed at or after this ISO 8601 moment (with a zone or offset); pass the newest updatedUtc already seen. Another value answers invalidUpdatedSince.',
      ),
      // Checked by planPage (invalidUpdatedSince), not by valibot (invalidRequest); documented here.
      v.metadata({ format: 'date-time' }),
    ),
  ),
};

/** Whether an operation answers pages: its input takes a cursor (cursorFields). */
export function isPaged(operation: { input: unknown }): boolean {
  const entries = (operation.input as { entries?: Record<string, unknown> }).entries;
  return entries !== undefined && 'cursor' in entries;
}

export const legacyPageFields = {
  page: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(2_147_483_647),
      v.description('Page number from 1 (an int32), kept from before cursors; prefer cursor.'),
    ),
  ),
  pageSize: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(maxLimit),
      v.description('Same as limit (default 100, up to 500).'),
    ),
  ),
  sort: v.optional(
    v.pipe(
      v.string(),
      oneLine,
      v.description('changed (oldest change first; the default) or -created (newest first).'),
    ),
  ),
};

/** changed and -created can be asked for; -changed (latest change first) is a list's own order. */
export type Sort = 'changed' | '-created' | '-changed';

export interface PageInput {
  cursor?: string;
  limit?: number;
  updatedSince?: string;
  page?: number;
  pageSize?: number;
  sort?: string;
}

export interface PagePlan {
  list: string;
  filterHash: string;
  limit: number;
  sort: Sort;
  updatedSince: string | null;
  /** Keyset position to continue after; null on the first page. */
  after: (string | number)[] | null;
  /** Legacy page offset, used only when no cursor is sent. */
  offset: number;
  legacyPage: { page: number; pageSize: number } | null;
  /**
   * Only settled changes are shown (many writers: db/sequence.ts): oldest change first, and any page
   * filtered by updatedSince, whatever its order.
   */
  settledOnly: boolean;
  /** Conditions on a place in the change order, as the store's indexes range over them. */
  places: FeedPlaces;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

interface CursorPayload {
  l: string;
  f: string;
  s: Sort;
  p: (string | number)[];
}

function hashFilters(filters: Record<string, unknown>): string {
  const canonical = JSON.stringify(
    Object.keys(filters)
      .sort()
      .filter((k) => filters[k] !== undefined && filters[k] !== null)
      .map((k) => [k, filters[k]]),
  );
  return createHmac('sha256', 'filters').update(canonical).digest('base64url').slice(0, 16);
}

function sign(ctx: Ctx, body: string): string {
  return createHmac('sha256', ctx.services.secrets.cursorKey).update(body).digest('base64url').slice(0, 22);
}

export function encodeCursor(ctx: Ctx, payload: CursorPayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(ctx, body)}`;
}

function decodeCursor(ctx: Ctx, cursor: string): CursorPayload {
  const [body, signature, ...rest] = cursor.split('.');
  if (!body || !signature || rest.length > 0)
    throw problem('invalidCursor', 'The cursor is not one this service made.');
  const expected = Buffer.from(sign(ctx, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw problem('invalidCursor', 'The cursor is not one this service made, or it was altered.');
  }
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
  } catch {
    throw problem('invalidCursor', 'The cursor cannot be read.');
  }
}

export interface PlanOptions {
  /** The list's name, so a cursor of one list is refused by another. */
  list: string;
  /** Every filter that shapes the rows (path ids, status, email, ...). */
  filters: Record<string, unknown>;
  /** Whether the list keeps the legacy page, pageSize and sort parameters. */
  legacy?: boolean;
  /** The order when no sort is given. */
  defaultSort?: Sort;
}

export function planPage(ctx: Ctx, input: PageInput, options: PlanOptions): PagePlan {
  let updatedSince: string | null = null;
  if (input.updatedSince !== undefined) {
    updatedSince = parseInstant(input.updatedSince);
    if (updatedSince === null) {
      throw problem(
        'invalidUpdatedSince',
        `updatedSince "${input.updatedSince}" is not an ISO 8601 date-time with a zone.`,
      );
    }
  }
  let sort: Sort = options.defaultSort ?? 'changed';
  if (input.sort !== undefined) {
    if (input.sort !== 'changed' && input.sort !== '-created') {
      throw problem('invalidSort', `sort "${input.sort}" is not changed or -created.`);
    }
    sort = input.sort;
  }
  const limit = input.limit ?? input.pageSize ?? defaultLimit;
  // A cursor is bound to its list, filters, order and workspace: another key's workspace cannot use it.
  const filterHash = hashFilters({
    ...options.filters,
    updatedSince,
    sort,
    list: options.list,
    workspace: ctx.actor.workspaceId,
  });

  let after: PagePlan['after'] = null;
  if (input.cursor !== undefined) {
    const payload = decodeCursor(ctx, input.cursor);
    if (
      payload.l !== options.list ||
      payload.f !== filterHash ||
      payload.s !== sort ||
      !Array.isArray(payload.p)
    ) {
      throw problem(
        'invalidCursor',
        'The cursor was made for other filters; send the same filters as the first page.',
      );
    }
    after = payload.p;
  }
  const legacyPage =
    options.legacy && (input.page !== undefined || input.pageSize !== undefined)
      ? { page: input.page ?? 1, pageSize: limit }
      : null;
  const offset = after === null && legacyPage ? (legacyPage.page - 1) * limit : 0;
  // A cursor made before changes had a transaction (one position) is that position in transaction 0.
  if (after !== null && sort !== '-created' && after.length === 1) after = [0, after[0]!];
  // A client passes the newest updatedUtc it saw as updatedSince, whatever the order it read in: a
  // page showing a change while an earlier one (an earlier moment) was still in flight would let it
  // pass that one for good. Held back until settled, a change never carries a moment below one shown.
  const settledOnly = (sort === 'changed' || updatedSince !== null) && isPostgres(ctx.db);
  return {
    list: options.list,
    filterHash,
    limit,
    sort,
    updatedSince,
    after,
    offset,
    legacyPage,
    settledOnly,
    places: feedPlaces(ctx.db),
  };
}

export interface KeysetColumns {
  /** The writing transaction and the position within it (oldest change first: db/sequence.ts). */
  txn: string;
  seq: string;
  /** Last-change time column, for updatedSince. */
  updated: string;
  /** Creation time and id columns, for newest first. */
  created: string;
  id: string;
}

/** Adds the plan's filter, order, position and limit (one extra row, to know whether more follow). */
// biome-ignore lint/suspicious/noExplicitAny: works on any table's select.
export function applyPlan<QB extends SelectQueryBuilder<any, any, any>>(
  qb: QB,
  plan: PagePlan,
  columns: KeysetColumns,
): QB {
  let q = changedSince(qb, plan, columns);
  if (plan.sort === 'changed' || plan.sort === '-changed') {
    const txn = sql.ref(columns.txn);
    const seq = sql.ref(columns.seq);
    const direction = plan.sort === 'changed' ? 'asc' : 'desc';
    if (plan.updatedSince !== null && direction === 'asc' && !plan.after)
      q = fromFirstChangeSince(q, plan.places, txn, seq);
    if (plan.after) {
      const [afterTxn, afterSeq] = plan.after;
      q = q.where(plan.places.beyond(txn, seq, direction === 'asc' ? '>' : '<', [afterTxn, afterSeq])) as QB;
    }
    q = q.orderBy(txn, direction).orderBy(seq, direction) as QB;
  } else {
    if (plan.after) {
      const [created, id] = plan.after;
      q = q.where(
        sql<boolean>`(${sql.ref(columns.created)} < ${created} or (${sql.ref(columns.created)} = ${created} and ${sql.ref(columns.id)} < ${id}))`,
      ) as QB;
    }
    q = q.orderBy(sql.ref(columns.created), 'desc').orderBy(sql.ref(columns.id), 'desc') as QB;
  }
  q = q.limit(plan.limit + 1) as QB;
  if (plan.offset > 0) q = q.offset(plan.offset) as QB;
  return q;
}

/**
 * The plan's updatedSince filter on the row's last-change time, and on PostgreSQL the settled
 * horizon where the plan shows only settled changes (planPage): for lists in an order of their own
 * (ordered-keyset.ts) as for those applyPlan orders.
 */
// biome-ignore lint/suspicious/noExplicitAny: works on any table's select.
export function changedSince<QB extends SelectQueryBuilder<any, any, any>>(
  qb: QB,
  plan: PagePlan,
  columns: Pick<KeysetColumns, 'updated' | 'txn'>,
): QB {
  let q = qb;
  if (plan.updatedSince !== null) q = q.where(sql.ref(columns.updated), '>=', plan.updatedSince) as QB;
  if (plan.settledOnly) q = q.where(settledChanges(columns.txn)) as QB;
  return q;
}

/** Reads a page planned by applyPlan, its order taken from the list's index (db/dialect.ts). */
// biome-ignore lint/suspicious/noExplicitAny: works on any table's select.
export function readPage<O>(db: Ctx['db'], query: SelectQueryBuilder<any, any, O>): Promise<O[]> {
  return inIndexOrder(db, () => query.execute());
}

/**
 * The first page of what changed since a moment, oldest change first, starts at the first such row
 * (a range of the list's change index) instead of walking every older row to filter its time. That
 * row is found through the (scope, last-change time) index of migration 0034: `+ 0` keeps either
 * store from reading the change index in order for it, and leaves SQLite a value without a column's
 * affinity, which it needs to range over both columns of the index. Later pages start at their cursor.
 */
// biome-ignore lint/suspicious/noExplicitAny: works on any table's select.
function fromFirstChangeSince<QB extends SelectQueryBuilder<any, any, any>>(
  q: QB,
  places: FeedPlaces,
  txn: RawBuilder<unknown>,
  seq: RawBuilder<unknown>,
): QB {
  const first = q.orderBy(sql`${txn} + 0`).orderBy(sql`${seq} + 0`).limit(1);
  return q.where(places.fromFirst(txn, seq, first)) as QB;
}

/** The keyset position of a row for the plan's order. */
export function positionOf(plan: PagePlan, row: RowPosition): (string | number)[] {
  return plan.sort === '-created' ? [row.created, row.id] : [row.txn, row.seq];
}

/** What a row's keyset position is made of, for every order a list can have. */
export interface RowPosition {
  txn: number;
  seq: number;
  created: string;
  id: string;
}

/**
 * Cuts the extra row off and makes the next cursor. `rows` are what applyPlan fetched;
 * `position` gives each row's keyset position, `render` its public shape.
 */
export function finishPage<R, T>(
  ctx: Ctx,
  plan: PagePlan,
  rows: R[],
  position: (row: R) => RowPosition,
  render: (row: R) => T,
): Page<T> & { page?: number; pageSize?: number } {
  const hasMore = rows.length > plan.limit;
  const kept = hasMore ? rows.slice(0, plan.limit) : rows;
  const last = kept[kept.length - 1];
  const nextCursor =
    hasMore && last !== undefined
      ? encodeCursor(ctx, {
          l: plan.list,
          f: plan.filterHash,
          s: plan.sort,
          p: positionOf(plan, position(last)),
        })
      : null;
  const page: Page<T> & { page?: number; pageSize?: number } = {
    data: kept.map(render),
    nextCursor,
    hasMore,
  };
  if (plan.legacyPage) {
    page.page = plan.legacyPage.page;
    page.pageSize = plan.legacyPage.pageSize;
  }
  return page;
}

/** Output schema of a page of items, for OpenAPI and MCP. */
export function pageOf<T extends v.GenericSchema>(item: T) {
  return v.object({
    data: v.array(item),
    nextCursor: v.nullable(
      v.pipe(v.string(), v.description('Pass as cursor for the next page; null on the last page.')),
    ),
    hasMore: v.boolean(),
  });
}

/** A page of a list that keeps the legacy page and pageSize parameters, which the answer repeats. */
export function legacyPageOf<T extends v.GenericSchema>(item: T) {
  return v.object({
    ...pageOf(item).entries,
    page: v.optional(
      v.pipe(v.number(), v.integer(), v.description('The page asked for, when page or pageSize was sent.')),
    ),
    pageSize: v.optional(
      v.pipe(v.number(), v.integer(), v.description('The page size, when page or pageSize was sent.')),
    ),
  });
}
