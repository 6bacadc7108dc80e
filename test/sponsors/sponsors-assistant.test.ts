// Sponsors and leads run by an assistant through the MCP client alone (issue 25, items 2 and 3):
// a level and a sponsor added, a visitor registered and captured with consent, the lead changed with
// the entity tag the capture gave, exported and listed, then all removed, the refusals as tool
// errors carrying the REST problem. Also: lead.captured produced by an API call reaches a local
// HTTPS receiver, verified by the standardwebhooks package and the type's published schema; and
// erasing the visitor leaves no copy of them after a live capture.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { schemaColumns } from '../../db/dialect';
import { closeDeliverySetup, startDeliverySetup } from '../support/delivery-setup';
import type { Receiver } from '../support/receiver';
import { callTool, person, register, sampleIds } from '../support/sales';
import type { TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;
let summit: string;
let standard: string;
let receiver: Receiver;

beforeAll(async () => {
  ({ t, workspaceId, key, receiver } = await startDeliverySetup('Sponsors by an assistant', true));
  summit = sampleIds(workspaceId).event('summit');
  standard = sampleIds(workspaceId).ticketType('summit', 'standard');
});
afterAll(() => closeDeliverySetup({ t, receiver }));

/** A tool's answer and the entity tag in its _meta. */
async function callWithTag(
  client: Awaited<ReturnType<TestServer['mcp']>>,
  name: string,
  args: Record<string, unknown>,
) {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: any;
    _meta?: { etag?: string };
  };
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  return { data: result.structuredContent, etag: result._meta?.etag };
}

describe('an assistant runs sponsors and leads through MCP alone', () => {
  it('adds a level and a sponsor, captures a visitor, changes, exports, lists and removes', async () => {
    const client = await t.mcp(key, {}, '?toolsets=sponsors');
    const listed = (await client.listTools()).tools;
    for (const name of [
      'create_sponsor_level',
      'create_sponsor',
      'capture_lead',
      'export_sponsor_leads',
      'delete_lead',
    ])
      expect(listed.find((tool) => tool.name === name)?.description, name).toContain('Tessera extension');

    const levelArgs = {
      eventId: summit,
      name: 'Diamond',
      rank: 7,
      colour: '#b9f2ff',
      leadDownload: true,
      leadExportUntil: '2099-06-30',
      idempotencyKey: 'diamond-level',
    };
    const level = await callTool(client, 'create_sponsor_level', levelArgs);
    expect(level.isError).toBe(false);
    expect(level.data).toMatchObject({ name: 'Diamond', rank: 7, leadDownload: true });
    expect((await callTool(client, 'create_sponsor_level', levelArgs)).data).toEqual(level.data);

    const sponsor = await callTool(client, 'create_sponsor', {
      eventId: summit,
      name: 'Aurora Robotics',
      levelId: level.data.levelId,
      booth: 'D1',
    });
    expect(sponsor.data).toMatchObject({ level: 'Diamond', levelRank: 7, sortOrder: 1 });
    const sponsors = await callTool(client, 'list_sponsors', { eventId: summit });
    expect(sponsors.data.data[0].sponsorId).toBe(sponsor.data.sponsorId);

    const visitor = person(standard, { company: 'Visiting AS' });
    const registered = await callTool(client, 'register_attendees', {
      eventId: summit,
      attendees: [visitor],
    });
    expect(registered.isError, JSON.stringify(registered.data)).toBe(false);
    const attendeeId = registered.data.attendees[0].attendeeId;

    const captured = await callWithTag(client, 'capture_lead', {
      eventId: summit,
      sponsorId: sponsor.data.sponsorId,
      attendeeId,
      consent: true,
      shareEmail: true,
      rating: 2,
      answers: { interest: 'arms' },
    });
    expect(captured.data.lead).toMatchObject({
      shared: true,
      firstName: visitor.firstName,
      email: visitor.email,
    });
    expect(captured.etag).toMatch(/"/);

    const changed = await callWithTag(client, 'update_lead', {
      eventId: summit,
      leadId: captured.data.lead.leadId,
      rating: 3,
      note: 'Ready to buy.',
      ifMatch: captured.etag,
    });
    expect(changed.data.lead).toMatchObject({ rating: 3, note: 'Ready to buy.' });
    const stale = await callTool(client, 'update_lead', {
      eventId: summit,
      leadId: captured.data.lead.leadId,
      rating: 1,
      ifMatch: captured.etag,
    });
    expect(stale).toMatchObject({ isError: true, data: { code: 'preconditionFailed', status: 412 } });

    const exported = await callTool(client, 'export_sponsor_leads', {
      eventId: summit,
      sponsorId: sponsor.data.sponsorId,
    });
    expect(exported.data.data).toEqual([changed.data]);
    const leads = await callTool(client, 'list_leads', { eventId: summit, limit: 100 });
    expect(leads.data.data).toContainEqual(changed.data);

    const inUse = await callTool(client, 'delete_sponsor_level', {
      eventId: summit,
      levelId: level.data.levelId,
    });
    expect(inUse).toMatchObject({ isError: true, data: { code: 'levelInUse', sponsorCount: 1 } });
    const hasLeads = await callTool(client, 'delete_sponsor', {
      eventId: summit,
      sponsorId: sponsor.data.sponsorId,
    });
    expect(hasLeads).toMatchObject({ isError: true, data: { code: 'sponsorHasLeads', leadCount: 1 } });
    expect(
      (await callTool(client, 'delete_lead', { eventId: summit, leadId: captured.data.lead.leadId })).data,
    ).toEqual({ leadId: captured.data.lead.leadId, deleted: true });
    expect(
      (await callTool(client, 'delete_sponsor', { eventId: summit, sponsorId: sponsor.data.sponsorId })).data,
    ).toEqual({ sponsorId: sponsor.data.sponsorId, deleted: true });
    expect(
      (await callTool(client, 'delete_sponsor_level', { eventId: summit, levelId: level.data.levelId })).data,
    ).toEqual({ levelId: level.data.levelId, deleted: true });
    const levels = await callTool(client, 'list_sponsor_levels', { eventId: summit });
    expect(levels.data.data.map((l: any) => l.levelId)).not.toContain(level.data.levelId);
    await client.close();
  });
});

describe('lead.captured from an API call', () => {
  it('reaches a receiver, signed (standardwebhooks) and accepted by the published schema of the type', async () => {
    const made = await t.api('/webhooks', {
      key,
      method: 'POST',
      body: { url: receiver.url('/leads'), eventTypes: ['lead.captured'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const visitor = person(standard);
    const attendeeId = (await register(t, key, summit, [visitor])).body.attendees[0].attendeeId;
    const sponsorId = (await t.api(`/events/${summit}/sponsors`, { key })).body.data[0].sponsorId;
    const captured = await t.api(`/events/${summit}/leads`, {
      key,
      method: 'POST',
      body: { sponsorId, attendeeId, consent: true, rating: 3 },
    });
    expect(captured.status).toBe(201);

    const [got] = await receiver.waitFor(1, { path: '/leads' });
    const headers = Object.fromEntries(Object.entries(got!.headers).map(([k, v]) => [k, String(v)]));
    const body = new Webhook(made.body.secret).verify(got!.body, headers) as any;
    expect(body.type).toBe('lead.captured');
    expect(body.data.lead).toMatchObject({ leadId: captured.body.lead.leadId, firstName: visitor.firstName });
    expect(body.data.sponsor.sponsorId).toBe(sponsorId);

    const types = (await t.api('/webhooks/event-types', { key })).body.data;
    const published = types.find((c: any) => c.type === 'lead.captured').schema;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(published);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });
});

describe('erasure after a live capture', () => {
  it('leaves no copy of the visitor anywhere: the lead, the kept idempotent answer, the message', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const who = {
      firstName: `Leafirst${tag}`,
      lastName: `Lealast${tag}`,
      email: `lea.${tag}@example.org`,
      company: `Leacorp${tag}`,
      jobTitle: `Leajob${tag}`,
    };
    const registered = await register(t, key, summit, [{ ticketTypeId: standard, ...who }]);
    const attendeeId = registered.body.attendees[0].attendeeId;
    const sponsorId = (await t.api(`/events/${summit}/sponsors`, { key })).body.data[1].sponsorId;
    const captured = await t.api(`/events/${summit}/leads`, {
      key,
      method: 'POST',
      headers: { 'idempotency-key': `erase-lead-${tag}` },
      body: {
        sponsorId,
        attendeeId,
        consent: true,
        shareEmail: true,
        rating: 3,
        answers: { employer: who.company },
        note: `Met ${who.firstName} at the stand.`,
      },
    });
    expect(captured.body.lead).toMatchObject({ email: who.email, company: who.company });

    const db = t.server.services.db;
    const whereTheyAppear = async () => {
      const found: string[] = [];
      for (const [table, columns] of await schemaColumns(db))
        for (const { name } of columns)
          for (const needle of Object.values(who)) {
            const hit = await sql<{ n: number }>`
              select count(*) as n from ${sql.table(table)} where cast(${sql.ref(name)} as text) like ${`%${needle}%`}`.execute(
              db,
            );
            if (Number(hit.rows[0]!.n) > 0) found.push(`${table}.${name}`);
          }
      return found;
    };
    // Before: the lead, the kept answer and the message hold them.
    expect(await whereTheyAppear()).toEqual(
      expect.arrayContaining([
        'leads.first_name',
        'leads.email',
        'leads.note',
        'idempotency_records.response_body',
        'outbox.payload',
      ]),
    );
    await erasePerson(await operatorContext(t.server.services, workspaceId), { email: who.email });
    expect(await whereTheyAppear()).toEqual([]);
    const lead = await db
      .selectFrom('leads')
      .selectAll()
      .where('id', '=', captured.body.lead.leadId)
      .executeTakeFirst();
    expect(lead).toMatchObject({ erased: 1, first_name: null, email: null, answers: null, note: null });

    // Nothing about them is written again: a note is refused (400, naming the field); the rating
    // is the booth's own and still changes.
    const leadPath = `/events/${summit}/leads/${captured.body.lead.leadId}`;
    const noted = await t.api(leadPath, {
      key,
      method: 'PATCH',
      body: { note: `Call ${who.firstName} back.` },
    });
    expect(noted.status).toBe(400);
    expect(noted.body).toMatchObject({
      code: 'invalidRequest',
      errors: [{ field: 'note', message: 'The visitor erased their data; no note about them is kept.' }],
    });
    const rated = await t.api(leadPath, { key, method: 'PATCH', body: { rating: 1, note: null } });
    expect(rated.status).toBe(200);
    expect(rated.body.lead).toMatchObject({ shared: false, rating: 1, note: null });
    expect(await whereTheyAppear()).toEqual([]);
  });
});
