// Issue 28 item 4: an event's attendees, orders, check-ins and leads exported as CSV and JSON over
// HTTPS, MCP and the CLI. The JSON rows are the list's items, all of them; the CSV (read back by
// csv-parse) has a byte-order mark, a header of the item's fields and one row per item with the
// same values, formulas made text. Scopes, people:read, erasure, the lead download, modules and
// workspaces as the lists have them; each export in the activity log.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { neutralised } from '../../rest/table-file-body';
import { insertAddOn } from '../support/add-ons';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { expectProblem } from '../support/fixtures';
import { callTool, person, register, sampleIds, walkPages } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { runTessera } from '../support/spawned';

let t: TestServer;
let workspaceId: string;
let key: string;
let summit: string;
let doorEvent: DoorEvent;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Exports', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  summit = sampleIds(workspaceId).event('summit');
  doorEvent = await seedDoorEvent(t, workspaceId, key);
  for (const attendeeId of await doorEvent.register(doorEvent.general, 3))
    expect((await scan(attendeeId)).status).toBe(200);
});
afterAll(async () => t?.close());

const scan = (attendeeId: string) =>
  t.api(`/events/${doorEvent.eventId}/attendees/${attendeeId}/check-in`, {
    key,
    method: 'POST',
    body: { doorId: doorEvent.doors.main },
  });
const exportPath = (eventId: string, dataset: string, query = '') =>
  `/events/${eventId}/exports/${dataset}${query}`;

/** The export as the bytes REST sends, and its headers. */
async function download(eventId: string, dataset: string, query = '?format=csv', k = key) {
  const res = await t.fetch(`${t.server.origin}/api/v1${exportPath(eventId, dataset, query)}`, {
    headers: { authorization: `Bearer ${k}` },
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes };
}

/** The CSV as csv-parse reads it: the header and the rows. */
async function csvOf(eventId: string, dataset: string, query = '', k = key) {
  const file = await download(eventId, dataset, `?format=csv${query}`, k);
  expect(file.status, file.bytes.toString()).toBe(200);
  expect([...file.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records: string[][] = parse(file.bytes, { bom: true, relax_column_count: false });
  const [header, ...rows] = records;
  return { header: header!, rows, text: file.bytes.toString('utf8'), headers: file.headers };
}

const at = (item: any, path: string) => path.split('.').reduce((v, k) => (v == null ? v : v[k]), item);

/** A cell holds the item's value: empty for none, JSON for records, digits for numbers, text made safe. */
function expectCell(cell: string, value: unknown, column: string, currency?: string) {
  if (value === null || value === undefined) return expect(cell, column).toBe('');
  if (typeof value === 'object') return expect(JSON.parse(cell), column).toEqual(value);
  if (typeof value === 'number') {
    expect(Number(cell), column).toBe(value);
    if (currency) expect(cell, column).toBe(value.toFixed(currency === 'JPY' ? 0 : 2));
    return;
  }
  const text = String(value);
  expect(cell, column).toBe(/^[=+\-@\t\r\0]/.test(text) ? `'${text}` : text);
}

const lists: Record<string, (eventId: string) => string> = {
  attendees: (e) => `/events/${e}/attendees?limit=500`,
  orders: (e) => `/events/${e}/orders?limit=500`,
  'check-ins': (e) => `/events/${e}/check-ins?limit=500`,
  leads: (e) => `/events/${e}/leads?limit=100`,
};

describe('the attendee export', () => {
  it("carries each ticket's add-ons, in the JSON and the CSV", async () => {
    const ids = sampleIds(workspaceId);
    const addOnId = await insertAddOn(t.server.services.db, summit, { name: 'Workshop lunch' });
    const made = await register(t, key, summit, [
      person(ids.ticketType('summit', 'standard'), { addOns: [{ addOnId, quantity: 2 }] }),
      person(ids.ticketType('summit', 'standard')),
    ]);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const [withOne, withNone] = made.body.attendees.map((a: any) => a.attendeeId);
    const expected = [{ addOnId, name: 'Workshop lunch', quantity: 2 }];

    const json = await t.api(exportPath(summit, 'attendees'), { key });
    const byId = new Map(json.body.data.map((row: any) => [row.attendeeId, row]));
    expect((byId.get(withOne) as any).addOns).toEqual(expected);
    expect((byId.get(withNone) as any).addOns).toEqual([]);

    const csv = await csvOf(summit, 'attendees');
    const column = csv.header.indexOf('addOns');
    expect(column).toBeGreaterThan(-1);
    const row = csv.rows.find((r) => r[csv.header.indexOf('attendeeId')] === withOne)!;
    expect(JSON.parse(row[column]!)).toEqual(expected);
    const none = csv.rows.find((r) => r[csv.header.indexOf('attendeeId')] === withNone)!;
    expect(JSON.parse(none[column]!)).toEqual([]);
  });
});

describe('each dataset over HTTPS', () => {
  for (const dataset of ['attendees', 'orders', 'check-ins', 'leads']) {
    it(`${dataset}: the JSON rows are the list's items, the CSV one row per item with the same values`, async () => {
      const eventId = dataset === 'check-ins' ? doorEvent.eventId : summit;
      const json = await t.api(exportPath(eventId, dataset), { key });
      expect(json.status, JSON.stringify(json.body)).toBe(200);
      expect(json.headers.get('content-type')).toMatch(/^application\/json/);
      const withheld = new Set((json.body.withheld ?? []).map((s: any) => s.sponsorId));
      const items = (await walkPages(t, key, lists[dataset]!(eventId))).items.filter(
        (item) => !withheld.has(item.sponsor?.sponsorId),
      );
      expect(items.length).toBeGreaterThan(0);
      expect(json.body).toMatchObject({ dataset, eventId, personalData: 'included', total: items.length });
      // The attendee file adds each ticket's add-ons to the list's item.
      const rows: any[] = json.body.data;
      expect(dataset === 'attendees' ? rows.map(({ addOns, ...item }) => item) : rows).toEqual(items);

      const csv = await csvOf(eventId, dataset);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).toMatch(
        new RegExp(`^attachment; filename="[a-z0-9-]+-${dataset}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
      );
      expect(csv.text.split('\r\n').length).toBe(items.length + 2);
      expect(csv.rows.length).toBe(items.length);
      const firstItem = dataset === 'leads' ? items[0].lead : items[0];
      for (const field of Object.keys(firstItem))
        expect(csv.header).toContain(dataset === 'leads' ? `lead.${field}` : field);
      rows.forEach((item, i) => {
        csv.header.forEach((column, c) => {
          const money = dataset === 'orders' && (column === 'total' || column === 'vat');
          expectCell(csv.rows[i]![c]!, at(item, column), column, money ? item.currency : undefined);
        });
      });
    });
  }

  it('writes money with the currency’s decimals (6980 NOK as 6980.00)', async () => {
    const csv = await csvOf(summit, 'orders');
    const total = csv.header.indexOf('total');
    expect(csv.rows.every((row) => /^\d+\.\d{2}$/.test(row[total]!))).toBe(true);
    expect(csv.header).toContain('currency');
  });
});

describe('formulas and awkward text', () => {
  it('makes a cell that would start a formula text, and keeps commas and quotes in a field', async () => {
    const res = await register(t, key, summit, [
      person(sampleIds(workspaceId).ticketType('summit', 'standard'), {
        firstName: '=HYPERLINK("http://x","y")',
        lastName: '+1',
        company: '@SUM(A1)',
        // A one-line field takes no line break (issue 50); the control-character suite shows one kept from before.
        jobTitle: 'Two parts, "quoted"',
      }),
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const attendeeId = res.body.attendees[0].attendeeId;
    const csv = await csvOf(summit, 'attendees');
    const row = csv.rows.find((r) => r[csv.header.indexOf('attendeeId')] === attendeeId)!;
    const cell = (name: string) => row[csv.header.indexOf(name)];
    expect(cell('firstName')).toBe(`'=HYPERLINK("http://x","y")`);
    expect(cell('lastName')).toBe("'+1");
    expect(cell('company')).toBe("'@SUM(A1)");
    expect(cell('jobTitle')).toBe('Two parts, "quoted"');
    // The file itself quotes every cell and doubles the quotes inside.
    expect(csv.text).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
  });

  it('never touches a number column, and neutralises tab, carriage return and NUL starts too', () => {
    const columns = [
      { name: 'total', kind: 'number' as const },
      { name: 'a', kind: 'text' as const },
      { name: 'b', kind: 'text' as const },
      { name: 'c', kind: 'json' as const },
      { name: 'd', kind: 'text' as const },
    ];
    expect(neutralised(columns, ['-12.50', '\tx', '\rx', '{"a":1}', '\0x'])).toEqual([
      '-12.50',
      "'\tx",
      "'\rx",
      '{"a":1}',
      "'\0x",
    ]);
    expect(neutralised(columns, ['12', 'Ada-Marie', 'a=b', '[]', 'x@y'])).toEqual([
      '12',
      'Ada-Marie',
      'a=b',
      '[]',
      'x@y',
    ]);
  });
});

describe('who may export what', () => {
  it('needs each dataset’s own read scope (403 missingScope naming it)', async () => {
    const { key: eventsOnly } = await t.key({ workspaceId, scopes: ['events:read'] });
    const needs = {
      attendees: 'attendees:read',
      orders: 'orders:read',
      'check-ins': 'checkins:read',
      leads: 'sponsors:read',
    };
    for (const [dataset, scope] of Object.entries(needs)) {
      const eventId = dataset === 'check-ins' ? doorEvent.eventId : summit;
      const refused = expectProblem(
        await t.api(exportPath(eventId, dataset), { key: eventsOnly }),
        403,
        'missingScope',
      );
      expect(refused.scope, dataset).toBe(scope);
      expect((await download(eventId, dataset, '?format=csv', eventsOnly)).status).toBe(403);
    }
  });

  it('without people:read leaves names and emails empty as the lists do, and refuses leads (peopleScope)', async () => {
    const { key: noPeople } = await t.key({
      workspaceId,
      scopes: ['attendees:read', 'orders:read', 'checkins:read', 'sponsors:read'],
    });
    const json = await t.api(exportPath(summit, 'attendees'), { key: noPeople });
    expect(json.body.personalData).toBe('withheld');
    const listed = await walkPages(t, noPeople, lists.attendees!(summit));
    expect(json.body.data.map(({ addOns, ...item }: any) => item)).toEqual(listed.items);
    const csv = await csvOf(summit, 'attendees', '', noPeople);
    for (const column of ['firstName', 'lastName', 'email', 'company', 'ticketCode'])
      expect(new Set(csv.rows.map((r) => r[csv.header.indexOf(column)])), column).toEqual(new Set(['']));
    // Withheld, or erased for the people who asked: never included.
    const states = new Set(csv.rows.map((r) => r[csv.header.indexOf('personalData')]));
    expect(states).toContain('withheld');
    expect(states).not.toContain('included');
    const orders = await csvOf(summit, 'orders', '', noPeople);
    expect(new Set(orders.rows.map((r) => r[orders.header.indexOf('buyerEmail')]))).toEqual(new Set(['']));
    expectProblem(await t.api(exportPath(summit, 'leads'), { key: noPeople }), 403, 'peopleScope');
  });

  it('keeps an erased person erased', async () => {
    const body = person(sampleIds(workspaceId).ticketType('summit', 'standard'));
    const attendeeId = (await register(t, key, summit, [body])).body.attendees[0].attendeeId;
    const erased = await t.api('/people/erasure', { key, method: 'POST', body: { email: body.email } });
    expect(erased.status, JSON.stringify(erased.body)).toBeLessThan(300);
    const csv = await csvOf(summit, 'attendees');
    const row = csv.rows.find((r) => r[csv.header.indexOf('attendeeId')] === attendeeId)!;
    expect(row[csv.header.indexOf('erased')]).toBe('true');
    expect(row[csv.header.indexOf('personalData')]).toBe('erased');
    for (const column of ['firstName', 'lastName', 'email']) expect(row[csv.header.indexOf(column)]).toBe('');
    expect(csv.text).not.toContain(String(body.email));
  });

  it("leaves out the leads of a sponsor whose level's download is closed, and refuses that sponsor's own export", async () => {
    const level = await t.api(`/events/${summit}/sponsor-levels`, {
      key,
      method: 'POST',
      body: { name: 'No download', rank: 1, colour: '#112233', leadDownload: false },
    });
    const sponsor = (
      await t.api(`/events/${summit}/sponsors`, {
        key,
        method: 'POST',
        body: { name: 'Closed AS', levelId: level.body.levelId },
      })
    ).body.sponsorId;
    const visitor = (
      await register(t, key, summit, [person(sampleIds(workspaceId).ticketType('summit', 'standard'))])
    ).body.attendees[0].attendeeId;
    const lead = await t.api(`/events/${summit}/leads`, {
      key,
      method: 'POST',
      body: { sponsorId: sponsor, attendeeId: visitor, consent: true, rating: 3 },
    });
    expect(lead.status, JSON.stringify(lead.body)).toBe(201);
    const all = await t.api(exportPath(summit, 'leads'), { key });
    expect(all.body.data.some((item: any) => item.sponsor.sponsorId === sponsor)).toBe(false);
    expect(all.body.withheld).toContainEqual({
      sponsorId: sponsor,
      name: 'Closed AS',
      reason: 'The level No download does not include downloading leads.',
    });
    const csv = await csvOf(summit, 'leads');
    expect(csv.rows.some((r) => r[csv.header.indexOf('sponsor.sponsorId')] === sponsor)).toBe(false);
    expectProblem(
      await t.api(exportPath(summit, 'leads', `?sponsorId=${sponsor}`), { key }),
      409,
      'leadDownloadClosed',
    );

    await t.api(`/events/${summit}/sponsor-levels/${level.body.levelId}`, {
      key,
      method: 'PATCH',
      body: { leadDownload: true },
    });
    const own = await t.api(exportPath(summit, 'leads', `?sponsorId=${sponsor}&format=json`), { key });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.data.map((item: any) => item.lead.leadId)).toEqual([
      lead.body.lead?.leadId ?? lead.body.leadId,
    ]);
  });

  it("answers 404 for another workspace's event and 400 naming each bad field", async () => {
    const other = await t.workspace('Someone else', true);
    const otherSummit = sampleIds(other.workspaceId).event('summit');
    expectProblem(await t.api(exportPath(otherSummit, 'attendees'), { key }), 404, 'eventNotFound');
    const bad = expectProblem(
      await t.api(exportPath(summit, 'people', `?format=xlsx&sponsorId=${summit}`), { key }),
      400,
      'invalidRequest',
    );
    expect(bad.errors.map((e: any) => e.field).sort()).toEqual(['dataset', 'format', 'sponsorId']);
    const unknown = expectProblem(
      await t.api(exportPath(summit, 'orders', '?colour=red'), { key }),
      400,
      'invalidRequest',
    );
    expect(unknown.errors.map((e: any) => e.field)).toEqual(['colour']);
  });

  it('answers 409 moduleOff as the lists do when the module is off', async () => {
    const path = `/events/${doorEvent.eventId}`;
    await t.api(path, { key, method: 'PATCH', body: { modules: { checkin: false, leads: false } } });
    expectProblem(await t.api(exportPath(doorEvent.eventId, 'check-ins'), { key }), 409, 'moduleOff');
    expectProblem(await t.api(exportPath(doorEvent.eventId, 'leads'), { key }), 409, 'moduleOff');
    expect((await t.api(exportPath(doorEvent.eventId, 'attendees'), { key })).status).toBe(200);
    await t.api(path, { key, method: 'PATCH', body: { modules: { checkin: true, leads: true } } });
  });
});

describe('the assistant and the operator', () => {
  it('hands an assistant the first 50 rows, the total and where the whole file is', async () => {
    const client = await t.mcp(key, {}, '?toolsets=exports');
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain('export_event_data');
    const answer = await callTool(client, 'export_event_data', {
      eventId: summit,
      dataset: 'attendees',
      format: 'csv',
    });
    expect(answer.isError).toBe(false);
    const total = (await walkPages(t, key, lists.attendees!(summit))).items.length;
    expect(answer.data).toMatchObject({ dataset: 'attendees', eventId: summit, total });
    expect(answer.data.data).toHaveLength(50);
    expect(answer.data.note).toContain(`/api/v1/events/${summit}/exports/attendees?format=csv`);
    expect(answer.data.note).toContain('tessera export');
    const refused = await callTool(client, 'export_event_data', { eventId: summit, dataset: 'nothing' });
    expect(refused).toMatchObject({ isError: true, data: { code: 'invalidRequest' } });
    await client.close();
  });

  it('records each export in the activity log, saying whether personal data left', async () => {
    const entries = await t.server.services.db
      .selectFrom('workspace_activity')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('action', '=', 'exportEventData')
      .execute();
    expect(entries.length).toBeGreaterThan(4);
    expect(entries.map((e) => e.summary)).toContain('Exported attendees as csv (personal data included)');
    expect(entries.map((e) => e.summary)).toContain('Exported attendees as csv (personal data withheld)');
    expect(entries.every((e) => e.resource_type === 'event')).toBe(true);
  });

  it('writes a file only its owner reads with tessera export --to, and the CSV to stdout without it', async () => {
    const to = join(mkdtempSync(join(tmpdir(), 'tessera-export-')), 'attendees.csv');
    const args = [
      'export',
      '--workspace',
      workspaceId,
      '--event',
      summit,
      '--dataset',
      'attendees',
      '--data',
      t.dataDir,
    ];
    const written = await runTessera([...args, '--to', to]);
    expect(written.code, written.stderr).toBe(0);
    const total = (await walkPages(t, key, lists.attendees!(summit))).items.length;
    expect(JSON.parse(written.stdout)).toEqual({
      file: to,
      dataset: 'attendees',
      format: 'csv',
      rows: total,
    });
    expect(statSync(to).mode & 0o777).toBe(0o600);
    const file = readFileSync(to);
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(parse(file, { bom: true })).toHaveLength(total + 1);
    // The operator holds every scope: names and emails are in it.
    expect(file.toString()).toContain('@example');

    const out = await runTessera([...args, '--format', 'json']);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ dataset: 'attendees', total, personalData: 'included' });
    const wrong = await runTessera([...args.slice(0, 5), '--dataset', 'tickets', '--data', t.dataDir]);
    expect(wrong.code).toBe(2);
    expect(JSON.parse(wrong.stderr)).toMatchObject({ error: 'invalidRequest' });
  });
});
