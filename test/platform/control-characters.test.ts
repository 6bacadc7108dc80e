// Issue 50, item 4: control characters in one-line text fields, through the real server. A name
// with CR, LF or BEL is refused by REST (400 invalidRequest naming the field), by the MCP tool, by
// the public form (beside the field) and by the import (naming the row and field); a multi-line
// description keeps its line breaks and tabs. Rows stored before the rule are left as they are and
// shown safely: one line each in the e-mail's headers and body, the calendar entry, the ticket page
// and the CSV export, so "Eve⏎Bcc: …" can never start a line of its own.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multiLineMessage, oneLineMessage } from '../../core/platform/schemas';
import { eventToRegisterFor, serverWithMail, settled } from '../mail/mail-support';
import { eventBody, expectProblem } from '../support/fixtures';
import { exampleFile } from '../support/import-files';
import { callTool, person, register } from '../support/sales';
import type { TestServer } from '../support/server';
import { formPerson, formQuestion, formTicketType, publishedEvent, sendForm } from '../support/sign-up';
import type { SmtpTestServer } from '../support/smtp';
import { runTessera } from '../support/spawned';

let t: TestServer;
let smtp: SmtpTestServer;
let workspaceId: string;
let key: string;
let eventId: string;
let ticketTypeId: string;

beforeAll(async () => {
  ({ t, smtp } = await serverWithMail());
  ({ workspaceId, key, eventId, ticketTypeId } = await eventToRegisterFor(t));
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const db = () => t.server.services.db;
const attendeesOf = (id: string) =>
  db().selectFrom('attendees').selectAll().where('event_id', '=', id).execute();
/** The control characters HTML does not allow (all of C0 but tab and line breaks, and DEL) in a text. */
const notInHtml = (text: string) =>
  [...text].filter((c) => {
    const code = c.charCodeAt(0);
    return (code < 0x20 && c !== '\t' && c !== '\n' && c !== '\r') || code === 0x7f;
  });
/** A line of a text that starts with this header name, as an injected header would. */
const headerLine = (text: string, name: string) =>
  text.split(/\r\n|\r|\n/).some((line) => line.startsWith(name));

describe('a one-line field through the API', () => {
  it('refuses CR, LF and BEL in names with 400 invalidRequest naming each field, and registers no one', async () => {
    const res = await register(t, key, eventId, [
      person(ticketTypeId, { firstName: 'Eve\r\nBcc: mallory@example.org', lastName: 'Bell\u0007' }),
    ]);
    const problem = expectProblem(res, 400, 'invalidRequest');
    expect(problem.errors).toEqual([
      { field: 'attendees.0.firstName', message: oneLineMessage },
      { field: 'attendees.0.lastName', message: oneLineMessage },
    ]);
    expect(problem.detail).toContain(`attendees.0.firstName: ${oneLineMessage}`);
    expect(await attendeesOf(eventId)).toEqual([]);
  });

  it('refuses a line break in an event name, a tab in a city and U+2028 in a ticket type name', async () => {
    const event = await t.api('/events', {
      key,
      method: 'POST',
      body: eventBody({ name: 'Fjord\nSummit', venue: { name: 'Hall', city: 'Os\tlo', country: 'NO' } }),
    });
    expect(expectProblem(event, 400, 'invalidRequest').errors).toEqual([
      { field: 'name', message: oneLineMessage },
      { field: 'venue.city', message: oneLineMessage },
    ]);
    const type = await t.api(`/events/${eventId}/ticket-types`, {
      key,
      method: 'POST',
      body: { name: 'Day\u2028pass', price: 0 },
    });
    expect(expectProblem(type, 400, 'invalidRequest').errors).toEqual([
      { field: 'name', message: oneLineMessage },
    ]);
  });

  it('refuses a line break in a short text answer, and keeps one in a long text answer', async () => {
    const short = await formQuestion(t, eventId, { label: 'Company on badge', kind: 'text' });
    const long = await formQuestion(t, eventId, { label: 'Anything else', kind: 'longText' });
    const refused = await register(t, key, eventId, [
      person(ticketTypeId, { answers: { [short]: 'Acme\r\nBcc: x@example.org', [long]: 'Fine' } }),
    ]);
    expect(expectProblem(refused, 400, 'invalidRequest').errors).toEqual([
      { field: `attendees.0.answers.${short}`, message: oneLineMessage },
    ]);
    const kept = await register(t, key, eventId, [
      person(ticketTypeId, { answers: { [short]: 'Acme', [long]: 'Line one\r\nLine two' } }),
    ]);
    expect(kept.status, JSON.stringify(kept.body)).toBe(201);
    expect(kept.body.attendees[0].answers[long]).toBe('Line one\r\nLine two');
    await db().deleteFrom('questions').where('id', 'in', [short, long]).execute();
  });

  it('documents the rule as a pattern in the OpenAPI document', async () => {
    const doc = (await t.api('//api/v1/openapi.json')).body;
    const pattern = JSON.stringify(String.raw`^[^\u0000-\u001f\u007f\u2028\u2029]*$`);
    expect(JSON.stringify(doc).includes(`"pattern":${pattern}`)).toBe(true);
  });
});

describe('a one-line field through MCP', () => {
  it('refuses a line break in a name as a tool error naming the field', async () => {
    const before = (await attendeesOf(eventId)).length;
    const client = await t.mcp(key);
    try {
      const result = await callTool(client, 'register_attendees', {
        eventId,
        attendees: [person(ticketTypeId, { firstName: 'Eve\nBcc: mallory@example.org' })],
      });
      expect(result.isError).toBe(true);
      expect(result.data.code).toBe('invalidRequest');
      expect(result.data.errors).toEqual([{ field: 'attendees.0.firstName', message: oneLineMessage }]);
    } finally {
      await client.close();
    }
    expect(await attendeesOf(eventId)).toHaveLength(before);
  });
});

describe('a multi-line field', () => {
  it('keeps LF, CRLF and tabs in a description, and refuses a lone CR or BEL naming the field', async () => {
    const description = 'Lunch included.\r\nBring:\n\t- a laptop';
    const made = await t.api(`/events/${eventId}/ticket-types`, {
      key,
      method: 'POST',
      body: { name: 'Workshop', price: 0, description },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const read = await t.api(`/events/${eventId}/ticket-types/${made.body.ticketTypeId}`, { key });
    expect(read.body.description).toBe(description);
    for (const bad of ['One\rTwo', 'Ring\u0007']) {
      const refused = await t.api(`/events/${eventId}/ticket-types/${made.body.ticketTypeId}`, {
        key,
        method: 'PATCH',
        body: { description: bad },
      });
      expect(expectProblem(refused, 400, 'invalidRequest').errors).toEqual([
        { field: 'description', message: multiLineMessage },
      ]);
    }
  });
});

describe('the public registration form', () => {
  it('refuses a name with a line break, showing the message beside the field, and registers no one', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await formTicketType(t, event.eventId);
    const sent = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '1',
      ...formPerson(0, { firstName: 'Eve\r\nBcc: mallory@example.org' }),
      action: 'register',
    });
    expect(sent.status).toBe(422);
    const errors = [...sent.text.matchAll(/<p class="field-error" id="([^"]+)-error">([^<]*)<\/p>/g)].map(
      (m) => [m[1], m[2]],
    );
    expect(errors).toEqual([['f-person-0-firstName', oneLineMessage]]);
    expect(await attendeesOf(event.eventId)).toEqual([]);
  });
});

describe('the import', () => {
  it('refuses a name with a line break and an address line with BEL, naming each row and field', async () => {
    const tag = `ctl${Date.now().toString(36)}`;
    const file = JSON.parse(
      JSON.stringify(exampleFile())
        .replaceAll('-example"', `-${tag}"`)
        .replaceAll('"fjord-conf-2027"', `"${tag}-conf"`)
        .replaceAll('"fjord-meetup-june"', `"${tag}-june"`)
        .replaceAll('"fjord-devs"', `"${tag}-devs"`),
    );
    file.events[0].orders[0].attendees[0].firstName = 'Eve\nBcc: mallory@example.org';
    file.events[0].venue.name = 'Hall\u0007';
    const path = join(mkdtempSync(join(tmpdir(), 'tessera-control-')), 'control.json');
    writeFileSync(path, JSON.stringify(file));
    const run = await runTessera(['import', '--workspace', workspaceId, path, '--data', t.dataDir]);
    expect(run.code, run.stdout || run.stderr).toBe(2);
    const answer = JSON.parse(run.stderr);
    expect(answer.error).toBe('importRefused');
    expect(answer.problems).toEqual(
      expect.arrayContaining([
        { path: 'events[0].orders[0].attendees[0].firstName', message: oneLineMessage },
        { path: 'events[0].venue.name', message: oneLineMessage },
      ]),
    );
    const named = await db().selectFrom('events').select('id').where('slug', '=', `${tag}-conf`).execute();
    expect(named).toEqual([]);
  });
});

describe('a row stored before the rule', () => {
  it('is shown on one line in the e-mail, its calendar entry, the ticket page and the CSV export', async () => {
    const ada = person(ticketTypeId);
    const res = await register(t, key, eventId, [ada]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { attendeeId, ticketCode } = res.body.attendees[0];
    await settled(t, eventId);
    // Written straight to the database, as a row kept from before the rule may hold them.
    await db()
      .updateTable('attendees')
      .set({ first_name: 'Eve\r\nBcc: mallory@example.org\u0007', last_name: 'Doe\rX-Last: 1' })
      .where('id', '=', attendeeId)
      .execute();
    await db()
      .updateTable('events')
      .set({ name: 'Fjord\r\nX-Injected: yes' })
      .where('id', '=', eventId)
      .execute();
    await db()
      .updateTable('ticket_types')
      .set({ name: 'Day\npass' })
      .where('id', '=', ticketTypeId)
      .execute();

    const resent = await t.api(`/events/${eventId}/attendees/${attendeeId}/resend-ticket`, {
      key,
      method: 'POST',
    });
    expect(resent.status, JSON.stringify(resent.body)).toBe(201);
    await settled(t, eventId);
    const mails = smtp.received.filter((m) => m.to.includes(ada.email as string));
    const mail = mails[mails.length - 1]!;
    expect(mail.subject).toBe('Your ticket for Fjord X-Injected: yes');
    expect(mail.headers.from).toContain('Fjord X-Injected: yes');
    const head = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'));
    expect(headerLine(head, 'X-Injected')).toBe(false);
    expect(headerLine(head, 'Bcc')).toBe(false);
    expect(mail.text).toContain('Hello Eve Bcc: mallory@example.org ,');
    expect(mail.text).toContain('Ticket: Day pass');
    expect(headerLine(mail.text, 'Bcc')).toBe(false);
    expect(headerLine(mail.text, 'X-Injected')).toBe(false);
    expect(notInHtml(mail.html)).toEqual([]);
    const ics = mail.attachments[0]!.body;
    expect(ics).toContain('SUMMARY:Fjord X-Injected: yes');
    expect(headerLine(ics, 'X-Injected')).toBe(false);
    expect(headerLine(ics, 'X-Last')).toBe(false);

    const page = await t.fetch(`${t.server.origin}/t/${ticketCode}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('Eve');
    expect(notInHtml(html)).toEqual([]);
    const calendar = await (await t.fetch(`${t.server.origin}/t/${ticketCode}.ics`)).text();
    // Unfolded (RFC 5545 folds long lines with CRLF and a space or tab).
    expect(calendar.replace(/\r\n[ \t]/g, '')).toContain(
      'DESCRIPTION:Ticket: Day pass\\nFor: Eve Bcc: mallory@example.org  Doe X-Last: 1\\n',
    );
    expect(headerLine(calendar, 'Bcc')).toBe(false);
    expect(headerLine(calendar, 'X-Last')).toBe(false);

    const csv = await t.fetch(`${t.server.origin}/api/v1/events/${eventId}/exports/attendees?format=csv`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(csv.status).toBe(200);
    const [header, ...rows]: string[][] = parse(Buffer.from(await csv.arrayBuffer()), { bom: true });
    const row = rows.find((r) => r[header!.indexOf('attendeeId')] === attendeeId)!;
    expect(row[header!.indexOf('firstName')]).toBe('Eve Bcc: mallory@example.org ');
    expect(row[header!.indexOf('lastName')]).toBe('Doe X-Last: 1');
    expect(row[header!.indexOf('ticketTypeName')]).toBe('Day pass');
    // The stored row is left as it was.
    const stored = await db()
      .selectFrom('attendees')
      .select('first_name')
      .where('id', '=', attendeeId)
      .executeTakeFirstOrThrow();
    expect(stored.first_name).toBe('Eve\r\nBcc: mallory@example.org\u0007');
  });
});
