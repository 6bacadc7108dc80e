// Helpers of the public registration form's suites: a published event with ticket types and
// questions made for the case, and the form sent as a browser without script sends it.

import { formTokenField } from '../../core/platform/form-tokens';
import { newId } from '../../core/platform/ids';
import { eventBody } from './fixtures';
import { formTokenOf, sameOriginHeaders } from './page-forms';
import { insertTicketType, type TicketTypeSpec } from './sales';
import type { TestServer } from './server';

export interface FormEvent {
  eventId: string;
  slug: string;
  url: string;
}

/** A published event of the key's workspace (its slug given or made up). */
export async function publishedEvent(t: TestServer, key: string, overrides: Record<string, unknown> = {}) {
  const made = await t.api('/events', { key, method: 'POST', body: eventBody(overrides) });
  if (made.status !== 201) throw new Error(JSON.stringify(made.body));
  const published = await t.api(`/events/${made.body.eventId}/status`, {
    key,
    method: 'PUT',
    body: { status: 'published' },
  });
  if (published.status !== 200) throw new Error(JSON.stringify(published.body));
  return {
    eventId: made.body.eventId as string,
    slug: made.body.slug as string,
    url: made.body.url as string,
  };
}

/** A ticket type, with what the API's helper does not set: visibility, access code, sales window. */
export async function formTicketType(
  t: TestServer,
  eventId: string,
  spec: TicketTypeSpec & {
    visibility?: 'public' | 'code' | 'hidden';
    accessCode?: string;
    salesStartUtc?: string;
    salesEndUtc?: string;
  } = {},
): Promise<string> {
  const db = t.server.services.db;
  const id = await insertTicketType(db, eventId, spec, t.server.services.clock.now());
  await db
    .updateTable('ticket_types')
    .set({
      visibility: spec.visibility ?? 'public',
      access_code: spec.accessCode ?? null,
      sales_start_utc: spec.salesStartUtc ?? null,
      sales_end_utc: spec.salesEndUtc ?? null,
    })
    .where('id', '=', id)
    .execute();
  return id;
}

/** A registration question of the event. */
export async function formQuestion(
  t: TestServer,
  eventId: string,
  q: { label: string; kind: string; required?: boolean; options?: string[]; ticketTypeIds?: string[] },
): Promise<string> {
  const db = t.server.services.db;
  const event = await db
    .selectFrom('events')
    .select('workspace_id')
    .where('id', '=', eventId)
    .executeTakeFirstOrThrow();
  const id = newId();
  await db
    .insertInto('questions')
    .values({
      id,
      workspace_id: event.workspace_id,
      event_id: eventId,
      label: JSON.stringify({ en: q.label }),
      kind: q.kind as never,
      required: q.required ? 1 : 0,
      options: JSON.stringify((q.options ?? []).map((value) => ({ value, label: { en: value } }))),
      max_length: null,
      ticket_type_ids: JSON.stringify(q.ticketTypeIds ?? []),
      sort_order: 1,
    })
    .execute();
  return id;
}

export interface FormAnswer {
  status: number;
  location: string | null;
  /** Retry-After, on a refusal. */
  retryAfter: string | null;
  text: string;
}

/** The form token the page /e/{slug} gives this client; null when it shows no form (closed, gone). */
export async function pageFormToken(t: TestServer, slug: string): Promise<string | null> {
  return formTokenOf(await (await t.fetch(`${t.server.origin}/e/${slug}`)).text());
}

/**
 * Sends the form of /e/{slug} as a browser without script does (urlencoded), following no redirect:
 * loads the page first (unless its token is given) and sends its form token back, as a browser that
 * names no origin must. A page showing no form (closed, gone) is posted to as a current browser
 * would from a page loaded before: naming the service's origin.
 */
export async function sendForm(
  t: TestServer,
  slug: string,
  fields: Record<string, string | string[]>,
  pageToken?: string,
): Promise<FormAnswer> {
  const token = pageToken ?? (await pageFormToken(t, slug));
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields))
    for (const one of ([] as string[]).concat(value)) body.append(name, one);
  if (token) body.append(formTokenField, token);
  const res = await t.fetch(`${t.server.origin}/e/${slug}/register`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(token ? {} : sameOriginHeaders(t.server.origin)),
    },
    body: body.toString(),
    redirect: 'manual',
  });
  return {
    status: res.status,
    location: res.headers.get('location'),
    retryAfter: res.headers.get('retry-after'),
    text: await res.text(),
  };
}

/** One person's fields of the form, person `i`. */
export function formPerson(i: number, who: { firstName?: string; lastName?: string; email?: string } = {}) {
  const n = Math.random().toString(36).slice(2, 8);
  return {
    [`person.${i}.firstName`]: who.firstName ?? `Kari${n}`,
    [`person.${i}.lastName`]: who.lastName ?? `Nordmann${n}`,
    [`person.${i}.email`]: who.email ?? `kari.${n}@example.org`,
  };
}
