// Helpers the sales-core suites share: ids of the sample data, attendee bodies, ticket types made
// straight in the database, outbox reads, MCP results.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import { newId } from '../../core/platform/ids';
import type { Db } from '../../db/connect';
import { sampleId } from '../../db/sample/ids';
import { nextChangeSeq } from '../../db/sequence';
import type { ApiAnswer, MutableClock, TestServer } from './server';

/** Ids of the rows `--sample` makes (db/sample): events summit, meetup, forum, remote, past. */
export function sampleIds(workspaceId: string) {
  const id = (name: string) => sampleId(workspaceId, name);
  return {
    event: (key: 'summit' | 'meetup' | 'forum' | 'remote' | 'past') => id(`event/${key}`),
    ticketType: (event: string, key: string) => id(`tickettype/${event}/${key}`),
    addOn: (event: string, key: string) => id(`addon/${event}/${key}`),
    question: (eventKey: string, key: string) => id(`question/${id(`event/${eventKey}`)}/${key}`),
  };
}

let people = 0;

/** One attendee of a registration body; every call gives a new person. */
export function person(ticketTypeId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  people += 1;
  const n = `${people}${Math.random().toString(36).slice(2, 7)}`;
  return {
    ticketTypeId,
    firstName: `Ada${n}`,
    lastName: `Tester${n}`,
    email: `ada.${n}@example.org`,
    ...extra,
  };
}

/** Registers people through POST /events/{eventId}/attendees; returns the answer. */
export function register(
  t: TestServer,
  key: string,
  eventId: string,
  attendees: Record<string, unknown>[],
  extra: { body?: Record<string, unknown>; headers?: Record<string, string> } = {},
) {
  return t.api(`/events/${eventId}/attendees`, {
    key,
    method: 'POST',
    body: { attendees, ...(extra.body ?? {}) },
    headers: extra.headers,
  });
}

/**
 * Adds a ticket type to an event straight in the database (test set-up that needs what the API
 * does not set, such as a price on a paid event). Unlimited and public unless told otherwise.
 */
export function addTicketType(t: TestServer, eventId: string, spec: TicketTypeSpec = {}): Promise<string> {
  return insertTicketType(t.server.services.db, eventId, spec, t.server.services.clock.now());
}

export interface TicketTypeSpec {
  name?: string;
  capacity?: number | null;
  crew?: boolean;
  maxPerOrder?: number;
  priceMinor?: number;
}

/** The same, straight into a database (a data folder's, while its server runs or before). */
export async function insertTicketType(
  db: Db,
  eventId: string,
  spec: TicketTypeSpec = {},
  at = new Date(),
): Promise<string> {
  const event = await db.selectFrom('events').selectAll().where('id', '=', eventId).executeTakeFirstOrThrow();
  const id = newId();
  const now = at.toISOString();
  await db
    .insertInto('ticket_types')
    .values({
      id,
      workspace_id: event.workspace_id,
      event_id: eventId,
      name: spec.name ?? 'General admission',
      description: 'Test ticket type.',
      price_minor: spec.priceMinor ?? 0,
      vat_rate: 0,
      capacity: spec.capacity ?? null,
      taken: 0,
      max_per_order: spec.maxPerOrder ?? 50,
      visibility: 'public',
      access_code: null,
      requires_approval: 0,
      crew: spec.crew ? 1 : 0,
      sales_start_utc: null,
      sales_end_utc: null,
      included_add_on_ids: '[]',
      sort_order: 1,
      created_utc: now,
      updated_utc: now,
      change_seq: await nextChangeSeq(db),
    })
    .execute();
  return id;
}

export interface OutboxRow {
  id: number;
  messageId: string;
  eventId: string | null;
  type: string;
  payload: { type: string; timestamp: string; data: any };
}

/** The outbox messages of a workspace, oldest first. */
export async function outbox(t: TestServer, workspaceId: string): Promise<OutboxRow[]> {
  const rows = await t.server.services.db
    .selectFrom('outbox')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    messageId: r.message_id,
    eventId: r.event_id,
    type: r.type,
    payload: JSON.parse(r.payload),
  }));
}

/** Counts rows of a table for one event. */
export async function countRows(
  t: TestServer,
  table: 'orders' | 'attendees',
  eventId: string,
): Promise<number> {
  const row = await t.server.services.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Moves a MutableClock so that it reads the given moment now. */
export function setClock(clock: MutableClock, iso: string): void {
  clock.advance(Date.parse(iso) - clock.now().getTime());
}

/** Calls a tool; answers its data, or the problem of a tool error, with which of the two it is. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; data: any }> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content?: { type: string; text: string }[];
    structuredContent?: unknown;
  };
  const text = result.content?.[0]?.text;
  expect(typeof text).toBe('string');
  const parsed = JSON.parse(text!);
  if (!result.isError) expect(result.structuredContent).toEqual(parsed);
  return { isError: result.isError === true, data: parsed };
}

/** Every page of a cursor list, following nextCursor; `between` runs after each page but the last. */
export async function walkPages(
  t: TestServer,
  key: string,
  path: string,
  between?: (page: number) => Promise<void>,
): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res: ApiAnswer = await t.api(
      `${path}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`,
      { key },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
    items.push(...res.body.data);
    cursor = res.body.nextCursor;
    pages += 1;
    if (cursor && between) await between(pages);
  } while (cursor && pages < 500);
  return { items, pages };
}

/** The number of digits after the decimal point of a JSON number as the API wrote it. */
export function decimalsOf(value: number): number {
  const text = String(value);
  return text.includes('.') ? text.split('.')[1]!.length : 0;
}
