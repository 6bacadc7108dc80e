// An attendee carries ticketUrl beside ticketCode: the ticket's page, absolute on the configured
// public URL, in every answer that shows an attendee (REST, MCP, the attendee.* and checkin.created
// messages, the attendee export), a credential withheld like the code, and documented in OpenAPI
// as an extension field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { callTool, outbox, person, register } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

const publicUrl = 'https://tickets.example.net';
let t: TestServer;
let workspaceId: string;
let key: string;
let e: DoorEvent;

beforeAll(async () => {
  t = await startTestServer({ publicUrl });
  ({ workspaceId } = await t.workspace('Ticket addresses'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  e = await seedDoorEvent(t, workspaceId, key);
});
afterAll(async () => t?.close());

const addressOf = (code: string) => `${publicUrl}/t/${code}`;

describe('ticketUrl', () => {
  it('is the absolute /t/{ticketCode} on the public URL in the REST answers that show an attendee', async () => {
    const made = await register(t, key, e.eventId, [person(e.general)]);
    expect(made.status).toBe(201);
    const [attendee] = made.body.attendees;
    expect(attendee.ticketUrl).toBe(addressOf(attendee.ticketCode));
    const one = await t.api(`/events/${e.eventId}/attendees/${attendee.attendeeId}`, { key });
    expect(one.body.ticketUrl).toBe(addressOf(attendee.ticketCode));
    const list = await t.api(`/events/${e.eventId}/attendees?limit=500`, { key });
    const listed = list.body.data.find((a: any) => a.attendeeId === attendee.attendeeId);
    expect(listed.ticketUrl).toBe(addressOf(attendee.ticketCode));
    const scan = await t.api(`/events/${e.eventId}/check-ins/by-code`, {
      key,
      method: 'POST',
      body: { ticketCode: attendee.ticketCode },
    });
    expect(scan.body.attendee.ticketUrl).toBe(addressOf(attendee.ticketCode));
    // It names the ticket's page on this service.
    const page = await t.fetch(`${t.server.origin}${new URL(attendee.ticketUrl).pathname}`);
    expect(page.status).toBe(200);
  });

  it('is in the MCP answers too', async () => {
    const [attendeeId] = await e.register(e.general);
    const mcp = await t.mcp(key);
    const got = await callTool(mcp, 'get_attendee', { eventId: e.eventId, attendeeId });
    await mcp.close();
    expect(got.isError).toBe(false);
    expect(got.data.ticketUrl).toBe(addressOf(got.data.ticketCode));
  });

  it('is withheld like ticketCode from a key without people:read', async () => {
    const [attendeeId] = await e.register(e.general);
    const { key: narrow } = await t.key({ workspaceId, scopes: ['attendees:read'], expires: 'never' });
    const res = await t.api(`/events/${e.eventId}/attendees/${attendeeId}`, { key: narrow });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ticketCode: null, ticketUrl: null, personalData: 'withheld' });
  });

  it('is in the attendee.registered and checkin.created messages and in the attendee export', async () => {
    const [attendeeId] = await e.register(e.general);
    const code = (await t.api(`/events/${e.eventId}/attendees/${attendeeId}`, { key })).body.ticketCode;
    await t.api(`/events/${e.eventId}/check-ins/by-code`, {
      key,
      method: 'POST',
      body: { ticketCode: code },
    });
    const messages = (await outbox(t, workspaceId)).filter(
      (m) => m.payload.data.attendee?.attendeeId === attendeeId,
    );
    expect(messages.map((m) => m.type).sort()).toEqual(['attendee.registered', 'checkin.created']);
    for (const m of messages) expect(m.payload.data.attendee.ticketUrl, m.type).toBe(addressOf(code));
    const csv = await t.fetch(`${t.server.origin}/api/v1/events/${e.eventId}/exports/attendees?format=csv`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text.split('\n')[0]).toContain('ticketUrl');
    expect(text).toContain(addressOf(code));
  });

  it('is documented in OpenAPI as an extension field of Attendee', async () => {
    const doc = (await t.api('/openapi.json')).body;
    const field = doc.components.schemas.Attendee.properties.ticketUrl;
    // As ticketCode is: a nullable string whose description begins "Tessera extension.".
    const [text, none] = field.anyOf;
    expect(text).toMatchObject({ type: 'string', format: 'uri' });
    expect(text.description).toMatch(/^Tessera extension\./);
    expect(none).toEqual({ type: 'null' });
  });
});
