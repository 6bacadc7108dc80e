// Every list filter either applies or is refused, never ignored: for each paged list of the route
// table and each filter it takes, the filtered answer is exactly the rows of the unfiltered list that
// match, on every paging path the list offers (first page, a cursor walk, updatedSince, and where the
// list keeps them, page/pageSize and both sorts). Driven by the route table: a list with a filter
// this table does not know fails, so a new filter comes with its check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPaged } from '../../core/platform/pipeline/paging';
import { routes } from '../../rest/routes';
import { eventToRegisterFor, serverWithMail, settled } from '../mail/mail-support';
import { person, register, sampleIds, walkPages } from '../support/sales';
import type { TestServer } from '../support/server';
import type { SmtpTestServer } from '../support/smtp';

/** What a filter keeps: the values to try, read off the unfiltered rows, and whether a row matches one. */
interface FilterCase {
  /** The filter values a row stands for (e.g. its status). */
  valuesOf: (row: any) => unknown[];
  matches?: (row: any, value: unknown) => boolean;
}

const field =
  (name: string): FilterCase['valuesOf'] =>
  (row) =>
    row[name] === null || row[name] === undefined ? [] : [row[name]];

/** Every filter of every paged list, by operation and filter name. */
const filterCases: Record<string, FilterCase> = {
  'listEvents.status': { valuesOf: field('status') },
  'listOrders.status': { valuesOf: field('status') },
  'listAttendees.status': { valuesOf: field('status') },
  'listAttendees.email': {
    valuesOf: field('email'),
    matches: (row, value) => String(row.email).toLowerCase() === String(value).toLowerCase(),
  },
  'listEmails.state': { valuesOf: field('state') },
  'listEmails.attendeeId': { valuesOf: field('attendeeId') },
  'listCheckIns.after': {
    valuesOf: (row) => [row.checkInId],
    matches: (row, value) => row.checkInId > (value as number),
  },
  'listContent.sessionId': { valuesOf: field('sessionId') },
  'listSubmissions.status': { valuesOf: field('status') },
  'listShareLinks.sharerId': { valuesOf: field('sharerId') },
  'listPasses.communityId': { valuesOf: field('communityId') },
  'listPasses.eventId': {
    valuesOf: (row) => [row.salesEventId, ...row.events.map((e: { eventId: string }) => e.eventId)],
  },
  'listPassHolders.status': { valuesOf: field('status') },
  'listStays.status': { valuesOf: field('status') },
  'listTravel.status': { valuesOf: field('status') },
  'listCertificates.kind': { valuesOf: field('kind') },
  'listCertificates.attendeeId': { valuesOf: field('attendeeId') },
  'listInvoices.kind': { valuesOf: field('kind') },
  'listClaims.status': { valuesOf: field('status') },
  'listCommunityMembers.status': { valuesOf: field('status') },
  'listWebhookDeliveries.state': { valuesOf: field('state') },
  'listWaitingList.ticketTypeId': { valuesOf: field('ticketTypeId') },
  'listWaitingList.status': { valuesOf: field('status') },
};

const pagingFields = new Set(['cursor', 'limit', 'updatedSince', 'page', 'pageSize', 'sort']);

interface ListFilter {
  path: string;
  operation: string;
  filter: string;
  legacy: boolean;
  updatedSince: boolean;
}

const listFilters: ListFilter[] = routes.flatMap((route) => {
  if (route.method !== 'GET' || !isPaged(route.operation)) return [];
  const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const fields = Object.keys((route.operation.input as { entries: Record<string, unknown> }).entries);
  return fields
    .filter((f) => !pagingFields.has(f) && !params.includes(f))
    .map((filter) => ({
      path: route.path,
      operation: route.operation.name,
      filter,
      legacy: fields.includes('sort'),
      updatedSince: fields.includes('updatedSince'),
    }));
});

/** The ways a list is read: each must apply the filter. */
function pagingPaths(list: ListFilter): { name: string; query: string; walk: boolean }[] {
  const paths = [
    { name: 'the first page', query: 'limit=500', walk: false },
    { name: 'a cursor walk', query: 'limit=1', walk: true },
  ];
  if (list.updatedSince)
    paths.push({ name: 'updatedSince', query: 'updatedSince=2000-01-01T00:00:00Z&limit=2', walk: true });
  if (!list.legacy) return paths;
  return [
    ...paths,
    { name: 'sort changed', query: 'sort=changed&limit=2', walk: true },
    { name: 'sort -created', query: 'sort=-created&limit=2', walk: true },
    { name: 'legacy page and pageSize', query: 'page=1&pageSize=500', walk: false },
    { name: 'legacy sort -created page', query: 'sort=-created&page=1&pageSize=500', walk: false },
  ];
}

let t: TestServer;
let smtp: SmtpTestServer;
/** A key of the sample workspace, and one of a workspace that sends e-mail (a sample one sends none). */
const keys: string[] = [];

beforeAll(async () => {
  ({ t, smtp } = await serverWithMail());
  // Mail to a bounce address fails for good: the e-mail log then holds two states.
  smtp.onRecipient((address) =>
    address.startsWith('bounce') ? { code: 550, message: 'No such user' } : null,
  );
  const { workspaceId } = await t.workspace('List filters', true);
  const { key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
  const ids = sampleIds(workspaceId);
  const summit = ids.event('summit');
  const standard = ids.ticketType('summit', 'standard');
  // A cancelled ticket and two of one address, so status and email each leave something out.
  const made = await register(t, key, summit, [
    person(standard, { email: 'twice@example.org' }),
    person(standard, { email: 'twice@example.org' }),
    person(standard),
  ]);
  expect(made.status).toBe(201);
  const [, , cancelled] = made.body.attendees.map((a: { attendeeId: string }) => a.attendeeId);
  const ok = async (path: string, body?: unknown) => {
    const answer = await t.api(path, { key, method: 'POST', body });
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  };
  await ok(`/events/${summit}/attendees/${cancelled}/cancel`);
  // Content of a session and of none, and a certificate of a second kind.
  const sessionId = (await t.api(`/events/${summit}/sessions?limit=1`, { key })).body.data[0].sessionId;
  await ok(`/events/${summit}/content`, { kind: 'slides', title: 'Opening', url: 'https://example.org/o' });
  await ok(`/events/${summit}/content`, {
    kind: 'slides',
    title: 'Talk',
    url: 'https://example.org/t',
    sessionId,
  });
  const past = ids.event('past');
  const certified = (await t.api(`/events/${past}/certificates?limit=1`, { key })).body.data[0].attendeeId;
  const holder = (await t.api(`/events/${past}/attendees/${certified}`, { key })).body;
  await ok(`/events/${past}/speakers`, { name: 'Speaking Holder', email: holder.email });
  await ok(`/events/${past}/certificates`, { attendeeId: certified, kind: 'speaker' });
  // Waiting lists of two types, one entry taken off, so type and status each leave something out.
  const vip = ids.ticketType('summit', 'vip');
  for (const type of [standard, vip]) {
    const listed = await t.api(`/events/${summit}/ticket-types/${type}`, {
      key,
      method: 'PATCH',
      body: { waitingList: true },
    });
    expect(listed.status).toBe(200);
  }
  const joined: string[] = [];
  for (const [type, email] of [
    [standard, 'wait.one@example.org'],
    [standard, 'wait.two@example.org'],
    [vip, 'wait.three@example.org'],
  ] as const) {
    const answer = await t.api(`/events/${summit}/waiting-list`, {
      key,
      method: 'POST',
      body: { ticketTypeId: type, firstName: 'Wait', lastName: 'Listed', email },
    });
    expect(answer.status).toBe(201);
    joined.push(answer.body.waitingListEntryId);
  }
  const removed = await t.api(`/events/${summit}/waiting-list/${joined[1]}`, { key, method: 'DELETE' });
  expect(removed.status).toBe(204);
  keys.push(key);

  const mailing = await eventToRegisterFor(t);
  const sent = await register(t, mailing.key, mailing.eventId, [
    person(mailing.ticketTypeId),
    person(mailing.ticketTypeId, { email: `bounce.${Date.now()}@example.org` }),
  ]);
  expect(sent.status).toBe(201);
  await settled(t, mailing.eventId);
  keys.push(mailing.key);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** Candidate values of a path parameter: every row of the list it comes from. */
async function candidates(key: string, param: string, bound: Record<string, string>): Promise<string[]> {
  const lists: Record<string, () => string> = {
    eventId: () => '/events',
    passId: () => '/passes',
    communityId: () => '/communities',
    webhookId: () => '/webhooks',
    sponsorId: () => `/events/${bound.eventId}/sponsors`,
    submissionId: () => `/events/${bound.eventId}/submissions`,
  };
  const list = lists[param];
  if (!list) throw new Error(`No list gives the path parameter ${param}`);
  const answer = await t.api(list(), { key });
  expect(answer.status).toBe(200);
  const idField = Object.keys(answer.body.data[0] ?? {}).find((k) => k === param) ?? param;
  return answer.body.data.map((row: Record<string, string>) => row[idField]);
}

/** Every way of filling the path's parameters (parameters in path order). */
async function addresses(key: string, path: string, bound: Record<string, string> = {}): Promise<string[]> {
  const param = path.match(/:(\w+)/)?.[1];
  if (!param) return [path];
  const found: string[] = [];
  for (const value of await candidates(key, param, bound)) {
    found.push(...(await addresses(key, path.replace(`:${param}`, value), { ...bound, [param]: value })));
  }
  return found;
}

/** A row as a string: nothing changes while the test reads, so equal rows are the same row. */
const idOf = (row: Record<string, unknown>) => JSON.stringify(row);

async function read(key: string, address: string, query: string, walk: boolean): Promise<any[]> {
  const path = `${address}?${query}`;
  if (walk) return (await walkPages(t, key, path)).items;
  const answer = await t.api(path, { key });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.hasMore).toBe(false);
  return answer.body.data;
}

describe('every list filter', () => {
  it('has a check in this table for each filter a paged list takes', () => {
    const unknown = listFilters.map((l) => `${l.operation}.${l.filter}`).filter((name) => !filterCases[name]);
    expect(unknown).toEqual([]);
    expect(listFilters.length).toBeGreaterThanOrEqual(Object.keys(filterCases).length);
  });

  for (const list of listFilters) {
    it(`${list.operation}: ${list.filter} applies on every paging path`, async () => {
      const check = filterCases[`${list.operation}.${list.filter}`]!;
      const matches = check.matches ?? ((row: any, value: unknown) => check.valuesOf(row).includes(value));
      // A list address and a value where the filter must leave some rows out and keep others.
      let chosen: { key: string; address: string; value: unknown; all: any[] } | null = null;
      search: for (const key of keys) {
        for (const address of await addresses(key, list.path)) {
          const first = await t.api(`${address}?limit=500`, { key });
          if (first.status !== 200) continue; // e.g. the doors of an online event
          expect(first.body.hasMore).toBe(false);
          const all: any[] = first.body.data;
          const value = all
            .flatMap(check.valuesOf)
            .find((v) => all.some((row) => !matches(row, v)) && all.some((row) => matches(row, v)));
          if (value !== undefined) {
            chosen = { key, address, value, all };
            break search;
          }
        }
      }
      expect(chosen, `no data where ${list.filter} leaves a row out of ${list.path}`).not.toBeNull();
      const { key, address, value, all } = chosen!;
      const expected = all
        .filter((row) => matches(row, value))
        .map(idOf)
        .sort();
      for (const path of pagingPaths(list)) {
        const query = `${path.query}&${list.filter}=${encodeURIComponent(String(value))}`;
        const got = (await read(key, address, query, path.walk)).map(idOf).sort();
        expect(got, `${list.path} ${list.filter}=${value} through ${path.name}`).toEqual(expected);
      }
    });
  }
});
