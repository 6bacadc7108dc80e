// Import (issue 10, item 7): `tessera import --workspace ID FILE.json` loads the documented example
// whole, and reading it back through the HTTPS API shows every area; the same file again changes
// nothing (no row, no change position, no message); a changed file sends the messages of what
// changed, each accepted by its type's schema in the catalogue; a bad file imports nothing and names
// each problem with its path; erasure reaches the import-only sources and a re-import keeps them
// erased; the format's JSON Schema is served beside the OpenAPI document; 50,000 attendees import.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { ImportRefused, importFile } from '../../core/import/import-file';
import { exampleFile, examplePath, largeEventFile } from '../support/import-files';
import { outbox } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { runTessera, tessera } from '../support/spawned';

let t: TestServer;
let workspaceId: string;
let key: string;
let eventId: string;

const db = () => t.server.services.db;
const operator = () => operatorContext(t.server.services, workspaceId);
const maxChangeSeq = async () =>
  (await db().selectFrom('change_sequence').select('value').executeTakeFirstOrThrow()).value;
const count = async (table: 'events' | 'attendees' | 'outbox' | 'orders') =>
  Number(
    (
      await db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

function newAjv() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Import workspace'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

describe('tessera import of the example file', () => {
  it('loads every area in one go, through the command line', async () => {
    const result = await tessera(['import', '--workspace', workspaceId, examplePath, '--data', t.dataDir]);
    expect(result).toMatchObject({ workspaceId, dryRun: false, communities: 1, events: 2, unchanged: 0 });
    expect(result.created).toMatchObject({
      communities: 1,
      community_members: 3,
      events: 2,
      ticket_types: 4,
      add_ons: 2,
      discount_codes: 1,
      questions: 1,
      orders: 5,
      attendees: 5,
      attendee_add_ons: 2,
      rooms: 2,
      tracks: 1,
      speakers: 1,
      sessions: 2,
      doors: 2,
      sponsor_levels: 1,
      sponsors: 1,
      leads: 1,
      crew_members: 1,
      shifts: 1,
      shift_assignments: 1,
      surveys: 1,
      survey_responses: 2,
      session_ratings: 1,
      invoices: 1,
      invoice_lines: 2,
      budget_lines: 2,
      submissions: 1,
      submission_speakers: 1,
      submission_reviews: 2,
      submission_status_changes: 3,
      sharers: 1,
      share_links: 1,
      share_clicks: 2,
      share_registrations: 1,
      stays: 1,
      travel: 1,
      expense_claims: 1,
      certificates: 1,
      published_content: 1,
      passes: 1,
      pass_events: 2,
      pass_holders: 1,
      pass_opt_outs: 1,
    });
    const events = await t.api('/events', { key });
    const event = events.body.data.find((e: any) => e.slug === 'fjord-conf-2027-example');
    expect(event).toMatchObject({ name: 'Fjord Conference 2027', currency: 'NOK', timeZone: 'Europe/Oslo' });
    eventId = event.eventId;
  });

  it('reads back through the API as the file has it', async () => {
    const get = async (path: string) => {
      const res = await t.api(`/events/${eventId}${path}`, { key });
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body;
    };
    const attendees = (await get('/attendees?limit=100')).data;
    expect(attendees.map((a: any) => `${a.firstName} ${a.lastName}`).sort()).toEqual([
      'Jonas Lie',
      'Kari Nordmann',
      'Ola Nordmann',
      'Sofie Berg',
    ]);
    // Places taken are counted from the imported tickets, never read from the file.
    const types = (await get('/ticket-types')).data;
    const taken = Object.fromEntries(types.map((x: any) => [x.name, x.taken]));
    expect(taken).toMatchObject({ Standard: 2, 'VIP with dinner': 1, Crew: 1 });
    const addOns = Object.fromEntries((await get('/add-ons')).data.map((x: any) => [x.name, x.taken]));
    expect(addOns).toEqual({ 'Workshop: testing in production': 1, 'Conference dinner': 1 });
    // The order's total is the sum of its tickets and add-ons: 2 × 3490 + 900 NOK.
    const orders = (await get('/orders')).data;
    expect(orders.find((o: any) => o.reference === 'FJ-1001')).toMatchObject({
      total: 7880,
      currency: 'NOK',
    });

    const leads = (await get('/leads')).data;
    expect(leads).toHaveLength(1);
    expect(leads[0].lead).toMatchObject({ firstName: 'Kari', email: 'kari.nordmann@example.org', rating: 3 });
    const shifts = (await get('/shifts')).data;
    expect(shifts[0]).toMatchObject({
      needed: 2,
      assigned: 1,
      open: 1,
      place: { kind: 'door', name: 'Main entrance' },
    });
    const surveys = (await get('/surveys')).data;
    const results = await get(`/surveys/${surveys[0].surveyId}/results`);
    const overall = results.results.find((r: any) => r.questionId === 'overall');
    expect(overall).toMatchObject({ answered: 2, average: 4.5 });
    const invoices = (await get('/invoices')).data;
    expect(invoices[0]).toMatchObject({ number: 'FJ-2026-0001', total: 7880, kind: 'invoice' });
    const budget = await get('/budget');
    expect(budget.costs).toMatchObject({ budgeted: 400000, committed: 400000 });
    expect(budget.result).toMatchObject({ budgeted: 500000, forecast: 550000 });
    const submissions = (await get('/submissions')).data;
    expect(submissions[0]).toMatchObject({ title: 'Observability on a budget', status: 'accepted' });
    const leaderboard = (await get('/sharekit/leaderboard')).data;
    expect(leaderboard[0]).toMatchObject({ clicks: 2, registrations: 1 });
    const passes = (await t.api('/passes', { key })).body.data;
    const bundle = passes.find((p: any) => p.name === 'Conference and June meetup');
    expect(bundle).toMatchObject({ kind: 'bundle', scope: 'list', currency: 'NOK', price: 3990 });
    const holders = (await t.api(`/passes/${bundle.passId}/holders`, { key })).body.data;
    expect(holders.map((h: any) => `${h.firstName} ${h.lastName}`)).toEqual(['Erik Moe']);
    const doors = (await get('/doors')).data;
    expect(doors.map((d: any) => d.name)).toEqual(['Main entrance', 'Studio door']);

    const communities = (await t.api('/communities', { key })).body.data;
    const fjord = communities.find((c: any) => c.slug === 'fjord-devs-example');
    const members = (await t.api(`/communities/${fjord.communityId}/members`, { key })).body.data;
    expect(members.map((m: any) => m.status).sort()).toEqual(['active', 'active', 'left']);
    const stored = await db()
      .selectFrom('events')
      .select('community_id')
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(stored.community_id).toBe(fjord.communityId);
  });

  it('changes nothing the second time: no row, no change position, no message', async () => {
    const seq = await maxChangeSeq();
    const messages = await count('outbox');
    const result = await importFile(await operator(), JSON.stringify(exampleFile()));
    expect(result.created).toEqual({});
    expect(result.updated).toEqual({});
    expect(result.removed).toEqual({});
    expect(result.messages).toBe(0);
    expect(result.unchanged).toBeGreaterThan(40);
    expect(await maxChangeSeq()).toBe(seq + 0);
    expect(await count('outbox')).toBe(messages);
  });
});

describe('messages of what an import creates and changes', () => {
  it('are sent through the registry, each accepted by its type in the catalogue', async () => {
    const before = (await outbox(t, workspaceId)).length;
    // The second file: a member leaves, the volunteer drops the shift, the stay is cancelled, the
    // claim is paid, the flight moves, and a new member joins.
    const file = exampleFile();
    const community = file.communities[0];
    community.members[1].status = 'left';
    community.members[1].leftUtc = '2026-11-01T10:00:00Z';
    community.members.push({
      key: 'nils',
      name: 'Nils Eide',
      email: 'nils.eide@example.org',
      joinedUtc: '2026-11-02T10:00:00Z',
    });
    const e = file.events[0];
    e.shifts[0].crew = [];
    e.stays[0].status = 'cancelled';
    e.expenseClaims[0].status = 'paid';
    e.expenseClaims[0].paidUtc = '2027-05-20T09:00:00Z';
    e.travel[0].departsUtc = '2027-05-11T17:00:00Z';
    e.travel[0].arrivesUtc = '2027-05-11T17:55:00Z';
    const result = await importFile(await operator(), JSON.stringify(file));
    expect(result.updated).toMatchObject({ community_members: 1, stays: 1, expense_claims: 1, travel: 1 });
    expect(result.removed).toEqual({ shift_assignments: 1 });
    expect(result.created).toEqual({ community_members: 1 });

    const rows = await outbox(t, workspaceId);
    const catalogue = (await t.api('/webhooks/event-types', { key })).body.data as any[];
    const ajv = newAjv();
    const validators = new Map(catalogue.map((c) => [c.type, ajv.compile(c.schema)]));
    for (const row of rows) {
      const validate = validators.get(row.type)!;
      expect(validate(row.payload), `${row.type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    const types = (list: typeof rows) => list.map((r) => r.type).sort();
    expect(types(rows.slice(0, before))).toEqual(
      [
        'certificate.issued',
        'claim.approved',
        'content.published',
        'feedback.given',
        'feedback.given',
        'feedback.given',
        'lead.captured',
        'member.joined',
        'member.joined',
        'shift.signed_up',
        'stay.assigned',
        'travel.changed',
      ].sort(),
    );
    expect(types(rows.slice(before))).toEqual(
      [
        'claim.paid',
        'member.joined',
        'member.left',
        'shift.dropped',
        'stay.cancelled',
        'travel.changed',
      ].sort(),
    );
    const dropped = rows.find((r) => r.type === 'shift.dropped')!.payload.data;
    expect(dropped.shift).toMatchObject({ assigned: 0, open: 2, crewMemberIds: [] });
    expect(dropped.crewMember).toMatchObject({ name: 'Jonas Lie', shiftIds: [] });
    const left = rows.find((r) => r.type === 'member.left')!.payload.data;
    expect(left.member).toMatchObject({ name: 'Lars Haugen', status: 'left' });
  });
});

/**
 * The example with every slug changed (they are unique across the deployment), and with its event
 * and community keys changed too unless `keys` is false, so it makes rows of its own.
 */
function renamed(tag: string, keys = true) {
  let text = JSON.stringify(exampleFile()).replaceAll('-example"', `-${tag}"`);
  if (keys)
    text = text
      .replaceAll('"fjord-conf-2027"', `"${tag}-conf"`)
      .replaceAll('"fjord-meetup-june"', `"${tag}-june"`)
      .replaceAll('"fjord-devs"', `"${tag}-devs"`);
  return JSON.parse(text);
}

describe('a bad file', () => {
  const refusal = async (file: unknown): Promise<{ path: string; message: string }[]> => {
    const events = await count('events');
    const messages = await count('outbox');
    const seq = await maxChangeSeq();
    const text = typeof file === 'string' ? file : JSON.stringify(file);
    const error = await importFile(await operator(), text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportRefused);
    // Nothing was imported.
    expect(await count('events')).toBe(events);
    expect(await count('outbox')).toBe(messages);
    expect(await maxChangeSeq()).toBe(seq);
    return (error as ImportRefused).issues;
  };
  /** The example under keys and slugs of its own: new rows, nothing shared with what is there. */
  const fresh = () => renamed('fresh');

  it('that is not JSON says so', async () => {
    expect(await refusal('{"format": "tessera-import",')).toEqual([
      { path: '', message: expect.stringMatching(/^Not JSON/) },
    ]);
  });

  it('names each field the format refuses, with its path', async () => {
    const file = fresh();
    file.version = 2;
    file.events[0].colour = 'blue';
    file.events[0].orders[0].attendees[1].email = 'not-an-address';
    file.events[0].sessions[0].kind = 'lecture';
    const issues = await refusal(file);
    expect(issues.map((i) => i.path).sort()).toEqual(
      [
        'version',
        'events[0].colour',
        'events[0].orders[0].attendees[1].email',
        'events[0].sessions[0].kind',
      ].sort(),
    );
    expect(issues.find((i) => i.path === 'events[0].colour')!.message).toMatch(/Not a field/);
  });

  it('names each broken rule and reference, with its path', async () => {
    const file = fresh();
    const e = file.events[0];
    e.orders[0].attendees[0].ticketType = 'gold';
    e.ticketTypes[0].price = 12.345;
    e.sessions[0].endsUtc = '2027-05-12T07:00:00Z';
    e.leads[0].shared = false;
    e.rooms[1].key = 'main-hall';
    e.timeZone = 'Europe/Bergen';
    e.invoices[0].lines[0].quantity = -1;
    e.surveys[0].responses[0].answers.overall = 9;
    const issues = await refusal(file);
    const at = (path: string) => issues.find((i) => i.path === path)?.message;
    expect(at('events[0].orders[0].attendees[0].ticketType')).toBe(
      'No ticket type has the key "gold" in this file.',
    );
    expect(at('events[0].ticketTypes[0].price')).toMatch(/more decimals than NOK/);
    expect(at('events[0].sessions[0].endsUtc')).toMatch(/end must come after the start/);
    expect(at('events[0].leads[0].shared')).toMatch(/did not agree to share/);
    expect(at('events[0].rooms[1].key')).toMatch(/already used by events\[0\]\.rooms\[0\]/);
    expect(at('events[0].timeZone')).toMatch(/not an IANA time zone/);
    expect(at('events[0].invoices[0].lines[0].quantity')).toMatch(/bills 0 or more/);
    expect(at('events[0].surveys[0].responses[0].answers.overall')).toMatch(/1 to 5/);
    // The session in the room whose key was taken now names a key no room has.
    expect(at('events[0].sessions[1].room')).toBe('No room has the key "studio" in this file.');
    expect(issues, JSON.stringify(issues, null, 1)).toHaveLength(9);
  });

  it('with more tickets than a capacity is refused at that ticket type', async () => {
    const file = fresh();
    file.events[0].ticketTypes[0].capacity = 1;
    const issues = await refusal(file);
    expect(issues).toEqual([
      {
        path: 'events[0].ticketTypes[0].capacity',
        message: "The file's tickets hold 2 places, more than its capacity of 1.",
      },
    ]);
  });

  it("with another workspace's slug is refused", async () => {
    const other = await t.workspace('Other importer');
    const file = exampleFile();
    file.communities[0].slug = 'someone-elses';
    const error = await importFile(
      await operatorContext(t.server.services, other.workspaceId),
      JSON.stringify(file),
    ).catch((e: unknown) => e);
    expect((error as ImportRefused).issues).toEqual([
      { path: 'events[0].slug', message: 'The slug "fjord-conf-2027-example" is taken by another event.' },
      { path: 'events[1].slug', message: 'The slug "fjord-meetup-june-example" is taken by another event.' },
    ]);
  });

  it('into another workspace (the same keys, slugs of its own) makes rows of its own, never touching these', async () => {
    const other = await t.workspace('Second importer');
    const result = await importFile(
      await operatorContext(t.server.services, other.workspaceId),
      JSON.stringify(renamed('second', false)),
    );
    expect(result.created).toMatchObject({ events: 2, attendees: 5 });
    const theirs = await db()
      .selectFrom('attendees')
      .select('id')
      .where('workspace_id', '=', other.workspaceId)
      .execute();
    const mine = new Set(
      (await db().selectFrom('attendees').select('id').where('workspace_id', '=', workspaceId).execute()).map(
        (r) => r.id,
      ),
    );
    expect(theirs).toHaveLength(5);
    for (const row of theirs) expect(mine.has(row.id)).toBe(false);
    const { key: otherKey } = await t.key({
      workspaceId: other.workspaceId,
      preset: 'everything',
      expires: 'never',
    });
    expect((await t.api(`/events/${eventId}`, { key: otherKey })).status).toBe(404);
  });

  it('answers on stderr as JSON with exit status 2 at the command line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-import-'));
    const path = join(dir, 'bad.json');
    const file = fresh();
    file.events[0].doors[0].kind = 'gate';
    writeFileSync(path, JSON.stringify(file));
    const { code, stderr } = await runTessera([
      'import',
      '--workspace',
      workspaceId,
      path,
      '--data',
      t.dataDir,
    ]);
    expect(code).toBe(2);
    expect(JSON.parse(stderr)).toMatchObject({
      error: 'importRefused',
      problems: [{ path: 'events[0].doors[0].kind', message: expect.any(String) }],
    });
  });

  it('can be checked first with a dry run, which keeps nothing', async () => {
    const events = await count('events');
    const result = await importFile(await operator(), JSON.stringify(fresh()), { dryRun: true });
    expect(result).toMatchObject({
      dryRun: true,
      created: expect.objectContaining({ events: 2, attendees: 5 }),
    });
    expect(await count('events')).toBe(events);
  });
});

describe('erasure and import', () => {
  it('reaches stays, travel, expense claims and certificates, and a re-import keeps them erased', async () => {
    const ctx = await operator();
    const amira = await erasePerson(ctx, { email: 'amira.haddad@example.org' });
    expect(amira).toMatchObject({ stays: 1, travel: 1, expenseClaims: 1, speakers: 1 });
    const kari = await erasePerson(await operator(), { email: 'kari.nordmann@example.org' });
    expect(kari).toMatchObject({ attendees: 1, certificates: 1, leads: 1 });
    for (const table of ['stays', 'travel', 'expense_claims', 'certificates'] as const) {
      const rows = await db().selectFrom(table).selectAll().where('workspace_id', '=', workspaceId).execute();
      for (const row of rows)
        expect(row, table).toMatchObject({ erased: 1, first_name: null, last_name: null });
    }
    const result = await importFile(await operator(), JSON.stringify(exampleFile()));
    expect(result.keptErased).toBeGreaterThanOrEqual(7);
    const stay = await db()
      .selectFrom('stays')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    expect(stay).toMatchObject({ erased: 1, first_name: null, email: null });
    const attendee = await db()
      .selectFrom('attendees')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('erased', '=', 1)
      .executeTakeFirstOrThrow();
    expect(attendee.first_name).toBeNull();
  });
});

describe('the format', () => {
  it('is served as JSON Schema beside the OpenAPI document, and accepts the example', async () => {
    const res = await t.api('/import-schema.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/schema\+json/);
    expect(res.body.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const validate = newAjv().compile(res.body);
    expect(validate(exampleFile()), JSON.stringify(validate.errors)).toBe(true);
    const misspelt = exampleFile();
    misspelt.events[0].ticketType = [];
    expect(validate(misspelt)).toBe(false);
    const openapi = await t.api('/openapi.json');
    expect(openapi.body.info.description).toContain('/api/v1/import-schema.json');
  });

  // Two imports of 50,000 on PostgreSQL take well over a minute on two loaded cores; the bound is against a hang.
  it('takes 50,000 attendees in one file', { timeout: 600_000 }, async () => {
    const { workspaceId: big } = await t.workspace('Large import');
    const attendees = await count('attendees');
    const result = await importFile(
      await operatorContext(t.server.services, big),
      JSON.stringify(largeEventFile(50_000, 'large-import-test')),
    );
    expect(result.created).toMatchObject({ orders: 25_000, attendees: 50_000 });
    expect(await count('attendees')).toBe(attendees + 50_000);
    const again = await importFile(
      await operatorContext(t.server.services, big),
      JSON.stringify(largeEventFile(50_000, 'large-import-test')),
    );
    expect(again.created).toEqual({});
    expect(again.unchanged).toBe(75_003);
  });
});
