// Sponsors, sponsor levels and leads (issue 10, item 1; spec "### Sponsor", "### SponsorLevel",
// "### Lead item" and the Sponsors endpoints) through the real HTTPS server and the MCP client:
// exact fields, the order by level rank then place, cursor paging, the modules sponsors and leads
// (409 moduleOff), the scopes (sponsors:read, and people:read for leads: 403 peopleScope), the
// visitor's consent (unshared leads never listed, details only as far as shared, the email only
// when shared too), the leads page (default 25, up to 100, newest first), workspace isolation, and
// erasure reaching a visitor's leads in the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { sampleId } from '../../db/sample/ids';
import { nextChangeSeq } from '../../db/sequence';
import { expectProblem } from '../support/fixtures';
import { callTool, sampleIds, walkPages } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

const specSponsorFields = [
  'sponsorId',
  'eventId',
  'name',
  'level',
  'levelId',
  'levelRank',
  'website',
  'logoUrl',
  'description',
  'booth',
  'sortOrder',
];
const specLevelFields = [
  'levelId',
  'eventId',
  'name',
  'rank',
  'colour',
  'staffAllowance',
  'freeTickets',
  'leadDownload',
  'leadExportUntil',
  'discountCodes',
  'discountPercent',
  'logoOnPage',
  'logoOnScreens',
  'logoOnBadges',
  'sponsoredSession',
];
/** The spec's lead fields, and erased / personalData of the personal-data rule. */
const specLeadFields = [
  'leadId',
  'shared',
  'firstName',
  'lastName',
  'company',
  'jobTitle',
  'email',
  'origin',
  'rating',
  'answers',
  'note',
  'capturedBy',
  'capturedUtc',
  'attendedSessionId',
  'updatedUtc',
  'erased',
  'personalData',
];

const sorted = (keys: string[]) => [...keys].sort();

let t: TestServer;
let workspaceId: string;
let reader: string;
let leadsReader: string;
let summit: string;
let meetup: string;
let otherSummit: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Sponsors workspace', true));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['sponsors:read'], expires: 'never' }));
  ({ key: leadsReader } = await t.key({
    workspaceId,
    scopes: ['sponsors:read', 'people:read'],
    expires: 'never',
  }));
  summit = sampleIds(workspaceId).event('summit');
  meetup = sampleIds(workspaceId).event('meetup');
  const other = await t.workspace('Another sponsors workspace', true);
  otherSummit = sampleIds(other.workspaceId).event('summit');
});
afterAll(async () => t?.close());

describe('updatedSince on the sponsor lists (the general paging rule)', () => {
  it('keeps only what changed at or after it, and refuses a bad value with 400 invalidUpdatedSince', async () => {
    for (const path of ['sponsors', 'sponsor-levels', 'leads']) {
      const list = (query: string) => t.api(`/events/${summit}/${path}?${query}`, { key: leadsReader });
      const all = (await list('limit=100')).body.data;
      expect(all.length, path).toBeGreaterThan(0);
      expect((await list('limit=100&updatedSince=2000-01-01T00:00:00Z')).body.data, path).toEqual(all);
      const none = await list('updatedSince=2999-01-01T00:00:00Z');
      expect(none.status, path).toBe(200);
      expect(none.body.data, path).toEqual([]);
      expectProblem(await list('updatedSince=yesterday'), 400, 'invalidUpdatedSince');
    }
  });
});

/** A sample workspace of its own, for tests that change things, with an everything key. */
async function scratch(name: string) {
  const made = await t.workspace(name, true);
  const { key } = await t.key({ workspaceId: made.workspaceId, preset: 'everything', expires: 'never' });
  return { workspaceId: made.workspaceId, key, ids: sampleIds(made.workspaceId) };
}

/** The summit's leads as stored, by id. */
async function storedLeads(eventId: string) {
  const rows = await t.server.services.db
    .selectFrom('leads')
    .selectAll()
    .where('event_id', '=', eventId)
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

describe('GET /events/{eventId}/sponsors', () => {
  it("lists the summit's sponsors with exactly the spec's Sponsor fields", async () => {
    const res = await t.api(`/events/${summit}/sponsors`, { key: reader });
    expect(res.status).toBe(200);
    expect(res.body.hasMore).toBe(false);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.data).toHaveLength(6);
    for (const sponsor of res.body.data) {
      expect(sorted(Object.keys(sponsor))).toEqual(sorted(specSponsorFields));
      expect(sponsor.eventId).toBe(summit);
    }
    expect(res.body.data[0]).toEqual({
      sponsorId: sampleId(workspaceId, 'sponsor/summit/fjord'),
      eventId: summit,
      name: 'Fjord Labs',
      level: 'Gold',
      levelId: sampleId(workspaceId, 'sponsor-level/summit/gold'),
      levelRank: 3,
      website: 'https://fjordlabs.example.com',
      logoUrl: 'https://fjordlabs.example.com/logo.png',
      description: 'Product analytics that respects privacy.',
      booth: 'A1',
      sortOrder: 1,
    });
  });

  it('orders by level rank, highest first, then sortOrder; a sponsor without a level ranks 0 and comes last', async () => {
    const { data } = (await t.api(`/events/${summit}/sponsors`, { key: reader })).body;
    expect(data.map((s: any) => [s.name, s.level, s.levelRank, s.sortOrder])).toEqual([
      ['Fjord Labs', 'Gold', 3, 1],
      ['Northwind AS', 'Gold', 3, 2],
      ['Polar Data', 'Silver', 2, 1],
      ['Lumen Studio', 'Silver', 2, 2],
      ['Oslo Product Guild', 'Community partner', 1, 1],
      ['Kaffebrenneriet', null, 0, 1],
    ]);
    expect(data[5].levelId).toBeNull();
  });

  it('pages with cursor and limit without skipping or repeating, a cursor bound to its list', async () => {
    const all = (await t.api(`/events/${summit}/sponsors`, { key: reader })).body.data;
    const { items, pages } = await walkPages(t, reader, `/events/${summit}/sponsors?limit=2`);
    expect(pages).toBe(3);
    expect(items).toEqual(all);
    const first = await t.api(`/events/${summit}/sponsors?limit=2`, { key: reader });
    const cursor = encodeURIComponent(first.body.nextCursor);
    expectProblem(
      await t.api(`/events/${summit}/sponsor-levels?cursor=${cursor}`, { key: reader }),
      400,
      'invalidCursor',
    );
    expectProblem(
      await t.api(`/events/${otherSummit}/sponsors?cursor=${cursor}`, { key: reader }),
      404,
      'eventNotFound',
    );
  });

  it('keeps its place when the order changes between pages: nothing repeats, and a sponsor moved ahead of the pages read is not met again', async () => {
    const s = await scratch('Sponsors reorder');
    const eventId = s.ids.event('summit');
    const db = t.server.services.db;
    const seen: string[] = [];
    const { items } = await walkPages(t, s.key, `/events/${eventId}/sponsors?limit=2`, async (page) => {
      if (page === 1)
        await db
          .updateTable('sponsor_levels')
          .set({ rank: 9 })
          .where('id', '=', sampleId(s.workspaceId, 'sponsor-level/summit/community'))
          .execute();
    });
    for (const item of items) seen.push(item.sponsorId);
    expect(new Set(seen).size).toBe(seen.length);
    // The guild moved before the page already read, so this walk does not meet it again.
    expect(items.map((x) => x.name)).toEqual([
      'Fjord Labs',
      'Northwind AS',
      'Polar Data',
      'Lumen Studio',
      'Kaffebrenneriet',
    ]);
  });

  it('needs sponsors:read (403 missingScope)', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['program:read', 'people:read'] });
    for (const path of ['sponsors', 'sponsor-levels', 'leads'])
      expect(
        expectProblem(await t.api(`/events/${summit}/${path}`, { key }), 403, 'missingScope').scope,
      ).toBe('sponsors:read');
  });

  it("answers 404 eventNotFound for another workspace's event on all three lists", async () => {
    for (const path of ['sponsors', 'sponsor-levels', 'leads'])
      expectProblem(
        await t.api(`/events/${otherSummit}/${path}`, { key: leadsReader }),
        404,
        'eventNotFound',
      );
  });
});

describe('GET /events/{eventId}/sponsor-levels', () => {
  it("lists the levels with exactly the spec's SponsorLevel fields, highest rank first", async () => {
    const res = await t.api(`/events/${summit}/sponsor-levels`, { key: reader });
    expect(res.status).toBe(200);
    for (const level of res.body.data) expect(sorted(Object.keys(level))).toEqual(sorted(specLevelFields));
    expect(res.body.data.map((l: any) => [l.name, l.rank])).toEqual([
      ['Gold', 3],
      ['Silver', 2],
      ['Community partner', 1],
    ]);
    const [gold, , community] = res.body.data;
    expect(gold).toMatchObject({
      levelId: sampleId(workspaceId, 'sponsor-level/summit/gold'),
      eventId: summit,
      colour: '#c9a227',
      staffAllowance: 6,
      freeTickets: 4,
      leadDownload: true,
      discountCodes: 2,
      discountPercent: 20,
      logoOnPage: true,
      logoOnScreens: true,
      logoOnBadges: true,
      sponsoredSession: true,
    });
    expect(gold.leadExportUntil).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(community).toMatchObject({ leadDownload: false, leadExportUntil: null, logoOnBadges: false });
  });

  it('pages with cursor and limit', async () => {
    const { items, pages } = await walkPages(t, reader, `/events/${summit}/sponsor-levels?limit=1`);
    expect(pages).toBe(3);
    expect(items.map((l) => l.rank)).toEqual([3, 2, 1]);
  });
});

describe('module refusals', () => {
  it('answers 409 moduleOff naming the module at the meetup, whose sponsors and leads are switched off', async () => {
    for (const path of ['sponsors', 'sponsor-levels'])
      expect(
        expectProblem(await t.api(`/events/${meetup}/${path}`, { key: leadsReader }), 409, 'moduleOff')
          .module,
      ).toBe('sponsors');
    expect(
      expectProblem(await t.api(`/events/${meetup}/leads`, { key: leadsReader }), 409, 'moduleOff').module,
    ).toBe('leads');
  });

  it('gives the data back when the organiser switches the module on again; leads follow their own module', async () => {
    const s = await scratch('Sponsors modules');
    const eventId = s.ids.event('meetup');
    const on = await t.api(`/events/${eventId}`, {
      key: s.key,
      method: 'PATCH',
      body: { modules: { sponsors: true } },
    });
    expect(on.status).toBe(200);
    const sponsors = await t.api(`/events/${eventId}/sponsors`, { key: s.key });
    expect(sponsors.body.data.map((x: any) => x.name)).toEqual(['Sakura Systems', 'Kitsune Works']);
    expectProblem(await t.api(`/events/${eventId}/leads`, { key: s.key }), 409, 'moduleOff');

    const summitOfS = s.ids.event('summit');
    await t.api(`/events/${summitOfS}`, { key: s.key, method: 'PATCH', body: { modules: { leads: false } } });
    expect((await t.api(`/events/${summitOfS}/sponsors`, { key: s.key })).status).toBe(200);
    expect(
      expectProblem(await t.api(`/events/${summitOfS}/leads`, { key: s.key }), 409, 'moduleOff').module,
    ).toBe('leads');
  });
});

describe('GET /events/{eventId}/leads', () => {
  it('needs people:read as well as sponsors:read (403 peopleScope)', async () => {
    const body = expectProblem(await t.api(`/events/${summit}/leads`, { key: reader }), 403, 'peopleScope');
    expect(body.detail).toContain('people:read');
  });

  it("answers { data: Lead item[] } with the sponsor (sponsorId, name) and the spec's lead fields", async () => {
    const res = await t.api(`/events/${summit}/leads`, { key: leadsReader });
    expect(res.status).toBe(200);
    expect(sorted(Object.keys(res.body))).toEqual(['data', 'hasMore', 'nextCursor']);
    for (const item of res.body.data) {
      expect(sorted(Object.keys(item))).toEqual(['lead', 'sponsor']);
      expect(sorted(Object.keys(item.sponsor))).toEqual(['name', 'sponsorId']);
      expect(sorted(Object.keys(item.lead))).toEqual(sorted(specLeadFields));
    }
    const first = res.body.data.find((i: any) => i.lead.note === 'Wants a demo of the analytics add-on.');
    expect(first.sponsor).toEqual({
      sponsorId: sampleId(workspaceId, 'sponsor/summit/fjord'),
      name: 'Fjord Labs',
    });
    expect(first.lead).toMatchObject({
      shared: true,
      origin: 'request',
      rating: 3,
      answers: { interest: 'analytics', timeline: 'thisQuarter' },
      capturedBy: 'Marte Berg',
      attendedSessionId: null,
      erased: false,
      personalData: 'included',
    });
  });

  it('lists only the leads whose visitor agreed to share: the others never appear', async () => {
    const stored = await storedLeads(summit);
    const shared = [...stored.values()].filter((r) => r.shared === 1).map((r) => r.id);
    const unshared = [...stored.values()].filter((r) => r.shared === 0).map((r) => r.id);
    expect(unshared.length).toBeGreaterThan(0);
    const { items } = await walkPages(t, leadsReader, `/events/${summit}/leads?limit=2`);
    const listed = items.map((i) => i.lead.leadId);
    expect(sorted(listed)).toEqual(sorted(shared));
    for (const id of unshared) expect(listed).not.toContain(id);
  });

  it("gives the visitor's details as far as shared, and the email only when the visitor shares it too", async () => {
    const stored = await storedLeads(summit);
    const db = t.server.services.db;
    const { data } = (await t.api(`/events/${summit}/leads`, { key: leadsReader })).body;
    let withEmail = 0;
    let withoutEmail = 0;
    for (const { lead } of data) {
      const row = stored.get(lead.leadId)!;
      if (row.erased === 1) continue;
      expect(lead).toMatchObject({
        shared: true,
        firstName: row.first_name,
        lastName: row.last_name,
        company: row.company,
        jobTitle: row.job_title,
        personalData: 'included',
      });
      expect(lead.firstName).toEqual(expect.any(String));
      const attendee = await db
        .selectFrom('attendees')
        .select('email')
        .where('id', '=', row.attendee_id!)
        .executeTakeFirstOrThrow();
      expect(attendee.email).toEqual(expect.any(String));
      if (row.email_shared === 1) {
        withEmail += 1;
        expect(lead.email).toBe(attendee.email);
      } else {
        withoutEmail += 1;
        expect(lead.email).toBeNull();
      }
    }
    expect(withEmail).toBeGreaterThan(0);
    expect(withoutEmail).toBeGreaterThan(0);
  });

  it('shows a visitor who erased their data with nothing personal: erased true, shared false, answers {}', async () => {
    const { data } = (await t.api(`/events/${summit}/leads`, { key: leadsReader })).body;
    const erased = data.filter((i: any) => i.lead.erased);
    expect(erased).toHaveLength(1);
    expect(erased[0].lead).toMatchObject({
      shared: false,
      firstName: null,
      lastName: null,
      company: null,
      jobTitle: null,
      email: null,
      answers: {},
      note: null,
      personalData: 'erased',
    });
  });

  it('answers every lead with answers an object, as the API names it ({} when none are shown)', async () => {
    const { items } = await walkPages(t, leadsReader, `/events/${summit}/leads?limit=3`);
    expect(items.length).toBeGreaterThan(0);
    for (const { lead } of items) {
      expect(lead.answers, lead.leadId).toBeTypeOf('object');
      expect(lead.answers, lead.leadId).not.toBeNull();
    }
  });

  it('lists the newest first (capturedUtc, then id, descending)', async () => {
    const { items } = await walkPages(t, leadsReader, `/events/${summit}/leads?limit=4`);
    const keys = items.map((i) => `${i.lead.capturedUtc} ${i.lead.leadId}`);
    expect(keys).toEqual([...keys].sort().reverse());
  });

  describe('the leads page', () => {
    let s: Awaited<ReturnType<typeof scratch>>;
    let eventId: string;
    const extra = 130;

    beforeAll(async () => {
      s = await scratch('Many leads');
      eventId = s.ids.event('summit');
      const db = t.server.services.db;
      const sponsorId = sampleId(s.workspaceId, 'sponsor/summit/lumen');
      // Captured a second apart, some at the very same moment (the id decides then).
      for (let n = 0; n < extra; n++) {
        const at = new Date(Date.UTC(2026, 0, 1, 10, 0, Math.floor(n / 2))).toISOString();
        await db
          .insertInto('leads')
          .values({
            id: sampleId(s.workspaceId, `test-lead/${n}`),
            workspace_id: s.workspaceId,
            event_id: eventId,
            sponsor_id: sponsorId,
            attendee_id: null,
            shared: 1,
            email_shared: n % 3 === 0 ? 1 : 0,
            first_name: `Visitor${n}`,
            last_name: 'Tester',
            company: null,
            job_title: null,
            email: n % 3 === 0 ? `visitor${n}@example.org` : null,
            answers: '{}',
            origin: 'booth',
            rating: 2,
            note: null,
            captured_by: 'Test staff',
            captured_utc: at,
            attended_session_id: null,
            erased: 0,
            created_utc: at,
            updated_utc: at,
            change_seq: await nextChangeSeq(db),
          })
          .execute();
      }
    });

    it('holds 25 by default and up to 100; 101 is refused with 400 invalidRequest', async () => {
      const first = await t.api(`/events/${eventId}/leads`, { key: s.key });
      expect(first.body.data).toHaveLength(25);
      expect(first.body.hasMore).toBe(true);
      const hundred = await t.api(`/events/${eventId}/leads?limit=100`, { key: s.key });
      expect(hundred.body.data).toHaveLength(100);
      expectProblem(await t.api(`/events/${eventId}/leads?limit=101`, { key: s.key }), 400, 'invalidRequest');
      expectProblem(await t.api(`/events/${eventId}/leads?limit=0`, { key: s.key }), 400, 'invalidRequest');
    });

    it('walks every shared lead once, newest first, across pages', async () => {
      const stored = [...(await storedLeads(eventId)).values()].filter((r) => r.shared === 1);
      const { items, pages } = await walkPages(t, s.key, `/events/${eventId}/leads`);
      expect(pages).toBe(Math.ceil(stored.length / 25));
      expect(items.map((i) => i.lead.leadId)).toEqual(
        stored
          .sort((a, b) =>
            a.captured_utc === b.captured_utc
              ? a.id < b.id
                ? 1
                : -1
              : a.captured_utc < b.captured_utc
                ? 1
                : -1,
          )
          .map((r) => r.id),
      );
    });
  });
});

describe('MCP tools', () => {
  it('list_sponsors, list_sponsor_levels and list_leads answer what REST answers', async () => {
    const client = await t.mcp(leadsReader);
    for (const [tool, path] of [
      ['list_sponsors', 'sponsors'],
      ['list_sponsor_levels', 'sponsor-levels'],
      ['list_leads', 'leads'],
    ] as const) {
      const viaTool = await callTool(client, tool, { eventId: summit, limit: 2 });
      const viaRest = await t.api(`/events/${summit}/${path}?limit=2`, { key: leadsReader });
      expect(viaTool.isError, tool).toBe(false);
      expect(viaTool.data.data, tool).toEqual(viaRest.body.data);
      const next = await callTool(client, tool, {
        eventId: summit,
        limit: 2,
        cursor: viaTool.data.nextCursor,
      });
      const restNext = await t.api(
        `/events/${summit}/${path}?limit=2&cursor=${encodeURIComponent(viaRest.body.nextCursor)}`,
        { key: leadsReader },
      );
      expect(next.data.data, tool).toEqual(restNext.body.data);
    }
    await client.close();
  });

  it('refuse as REST does: peopleScope without people:read, moduleOff at the meetup', async () => {
    const client = await t.mcp(reader);
    const refused = await callTool(client, 'list_leads', { eventId: summit });
    expect(refused.isError).toBe(true);
    expect(refused.data).toMatchObject({ status: 403, code: 'peopleScope' });
    const off = await callTool(client, 'list_sponsors', { eventId: meetup });
    expect(off.data).toMatchObject({ status: 409, code: 'moduleOff', module: 'sponsors' });
    await client.close();
  });
});

describe('erasure', () => {
  it("reaches the visitor's leads: found by their tickets (a lead without the email) and by email, nulled in the database", async () => {
    const s = await scratch('Leads erasure');
    const eventId = s.ids.event('summit');
    const db = t.server.services.db;
    // A lead shared without the email: only its attendee ties it to the person.
    const lead = await db
      .selectFrom('leads')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('shared', '=', 1)
      .where('email_shared', '=', 0)
      .where('erased', '=', 0)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const attendee = await db
      .selectFrom('attendees')
      .select(['id', 'email'])
      .where('id', '=', lead.attendee_id!)
      .executeTakeFirstOrThrow();
    // And a lead at the past event that holds only their email (no ticket of theirs behind it).
    const past = s.ids.event('past');
    const byEmail = sampleId(s.workspaceId, 'test-lead/by-email');
    const now = new Date().toISOString();
    await db
      .insertInto('leads')
      .values({
        id: byEmail,
        workspace_id: s.workspaceId,
        event_id: past,
        sponsor_id: sampleId(s.workspaceId, 'sponsor/past/atlantico'),
        attendee_id: null,
        shared: 1,
        email_shared: 1,
        first_name: lead.first_name,
        last_name: lead.last_name,
        company: 'Somewhere AS',
        job_title: 'Buyer',
        email: attendee.email,
        answers: '{"interest":"branding"}',
        origin: 'booth',
        rating: 3,
        note: `Met ${lead.first_name} at the stand.`,
        captured_by: 'Rita Costa',
        captured_utc: now,
        attended_session_id: null,
        erased: 0,
        created_utc: now,
        updated_utc: now,
        change_seq: await nextChangeSeq(db),
      })
      .execute();

    const counts = await erasePerson(await operatorContext(t.server.services, s.workspaceId), {
      email: attendee.email!,
    });
    expect(counts.leads).toBe(2);
    for (const id of [lead.id, byEmail]) {
      const row = await db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row, id).toMatchObject({
        first_name: null,
        last_name: null,
        company: null,
        job_title: null,
        email: null,
        answers: null,
        note: null,
        erased: 1,
      });
      expect(row.updated_utc > row.captured_utc || id === byEmail).toBe(true);
    }
    const listed = (await walkPages(t, s.key, `/events/${eventId}/leads`)).items.find(
      (i) => i.lead.leadId === lead.id,
    );
    expect(listed.lead).toMatchObject({
      shared: false,
      firstName: null,
      erased: true,
      personalData: 'erased',
    });
  });
});
