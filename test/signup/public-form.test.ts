// The registration form of /e/{slug} (issue 27 item 4), sent as a browser without script sends it:
// free tickets registered through the API's own registration (same rules, same capacity), each
// refusal re-rendering the form with its message beside the field, in the summary and the values
// kept; code-only types opened by their access code; a closed form, an unpublished event and the
// sales window; a filled trap field refused quietly; the limits per e-mail address and per client
// address; the page it ends on links each ticket /t/{code}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspaceId } from '../../core/admin/demo-workspace';
import { formTokenOf } from '../support/page-forms';
import { outbox } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { formPerson, formQuestion, formTicketType, publishedEvent, sendForm } from '../support/sign-up';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer({ env: { TESSERA_SIGN_UP_ADDRESS_LIMIT: '40' } });
  const { workspaceId } = await t.workspace('Public form', false);
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

const db = () => t.server.services.db;
const page = async (slug: string) => {
  const res = await t.fetch(`${t.server.origin}/e/${slug}`);
  return { status: res.status, text: await res.text() };
};
const attendeesOf = (eventId: string) =>
  db().selectFrom('attendees').selectAll().where('event_id', '=', eventId).execute();
/** The messages beside fields and in the summary. */
const fieldErrors = (text: string) =>
  [...text.matchAll(/<p class="field-error" id="([^"]+)-error">([^<]*)<\/p>/g)].map((m) => [m[1], m[2]]);

describe('the public registration form', () => {
  it('registers a free ticket through the API path and ends on the page with the ticket link', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await formTicketType(t, event.eventId, {
      name: 'Community pass',
      capacity: 10,
      maxPerOrder: 4,
    });
    const shown = await page(event.slug);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(`action="/e/${event.slug}/register"`);
    expect(shown.text).toContain(`name="qty.${typeId}"`);
    expect(shown.text).toMatch(/<label for="f-person-0-email">E-mail<\/label>/);
    const answer = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '1',
      ...formPerson(0, { firstName: 'Kari', lastName: 'Nordmann', email: 'Kari@Example.org' }),
      leaveEmpty: '',
      action: 'register',
    });
    expect(answer.status, answer.text).toBe(303);
    const [attendee] = await attendeesOf(event.eventId);
    expect(attendee).toMatchObject({
      first_name: 'Kari',
      email: 'kari@example.org',
      status: 'active',
      ticket_type_id: typeId,
    });
    const order = await db()
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', attendee!.order_id)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: 'free', source: 'registration' });
    const type = await db()
      .selectFrom('ticket_types')
      .select('taken')
      .where('id', '=', typeId)
      .executeTakeFirstOrThrow();
    expect(type.taken).toBe(1);
    const activity = await db()
      .selectFrom('workspace_activity')
      .selectAll()
      .where('resource_id', '=', order.id)
      .execute();
    expect(activity.map((a) => [a.actor_name, a.action])).toEqual([
      ['public sign-up page', 'registerAttendees'],
    ]);
    const sent = (await outbox(t, order.workspace_id)).filter((m) => m.type === 'attendee.registered');
    expect(sent.map((m) => m.payload.data.attendee?.attendeeId ?? m.payload.data.attendeeId)).toEqual([
      attendee!.id,
    ]);

    expect(answer.location).toBe(`/e/${event.slug}/registered?t=${attendee!.ticket_code}`);
    const end = await t.fetch(`${t.server.origin}${answer.location}`);
    const text = await end.text();
    expect(end.status).toBe(200);
    expect(text).toContain("You're registered");
    expect(text).toContain(`href="/t/${attendee!.ticket_code}"`);
    expect(
      (await t.fetch(`${t.server.origin}/e/${event.slug}/registered?t=AAAAAAAAAAAAAAAAAAAAAAAAAA`)).status,
    ).toBe(404);
  });

  it('asks for a person per ticket on a second page when more than one is chosen', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await formTicketType(t, event.eventId, { maxPerOrder: 5 });
    const first = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '3',
      ...formPerson(0),
      action: 'register',
    });
    expect(first.status).toBe(200);
    expect(first.text).toContain('name="person.2.email"');
    expect(first.text).toContain('name="step" value="2"');
    expect(await attendeesOf(event.eventId)).toEqual([]);
    const done = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '3',
      step: '2',
      ...formPerson(0),
      ...formPerson(1),
      ...formPerson(2),
      action: 'register',
    });
    expect(done.status, done.text).toBe(303);
    expect(done.location!.match(/t=/g)).toHaveLength(3);
    const rows = await attendeesOf(event.eventId);
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r.order_id)).size).toBe(1);
  });

  it('refuses missing and bad details, question rules and more than one order takes, beside each field, values kept', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await formTicketType(t, event.eventId, { maxPerOrder: 2 });
    const diet = await formQuestion(t, event.eventId, {
      label: 'Diet',
      kind: 'choice',
      required: true,
      options: ['none', 'vegan'],
    });
    const size = await formQuestion(t, event.eventId, {
      label: 'Shirt size',
      kind: 'choice',
      options: ['S', 'M'],
    });
    const shown = await page(event.slug);
    expect(shown.text).toContain(`name="person.0.answers.${diet}"`);

    const missing = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '1',
      'person.0.firstName': 'Ola',
      'person.0.lastName': '',
      'person.0.email': 'not-an-address',
      [`person.0.answers.${size}`]: 'XXL',
      action: 'register',
    });
    expect(missing.status).toBe(422);
    expect(fieldErrors(missing.text)).toEqual([
      ['f-person-0-lastName', 'This is required.'],
      ['f-person-0-email', 'Enter an e-mail address such as name@example.org.'],
      [`f-person-0-answers-${diet}`, 'This is required.'],
      [`f-person-0-answers-${size}`, 'Choose one of the options given.'],
    ]);
    expect(missing.text).toContain('<div class="error-summary" role="alert"');
    expect(missing.text).toContain('<a href="#f-person-0-email">E-mail: Enter an e-mail address');
    expect(missing.text).toMatch(
      /id="f-person-0-email" name="person.0.email" value="not-an-address" autocomplete="email" aria-describedby="f-person-0-email-error" aria-invalid="true"/,
    );
    expect(missing.text).toContain('value="Ola"');

    const tooMany = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '3',
      ...formPerson(0),
      action: 'register',
    });
    expect(tooMany.status).toBe(422);
    expect(fieldErrors(tooMany.text)).toEqual([[`f-qty-${typeId}`, 'At most 2 per order.']]);
    const none = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '0',
      ...formPerson(0),
      action: 'register',
    });
    expect(fieldErrors(none.text)).toEqual([['f-ticketTypes', 'Choose at least one ticket.']]);
    const junk = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '-1',
      ...formPerson(0),
      action: 'register',
    });
    expect(fieldErrors(junk.text)).toEqual([[`f-qty-${typeId}`, 'Enter a whole number, 0 or more.']]);
    expect(await attendeesOf(event.eventId)).toEqual([]);

    const fine = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '1',
      ...formPerson(0),
      [`person.0.answers.${diet}`]: 'vegan',
      action: 'register',
    });
    expect(fine.status, fine.text).toBe(303);
    const [row] = await attendeesOf(event.eventId);
    expect(JSON.parse(row!.answers!)).toEqual({ [diet]: 'vegan' });
  });

  it('opens a code-only type with its access code; hidden types never; a wrong code is named', async () => {
    const event = await publishedEvent(t, key);
    const open = await formTicketType(t, event.eventId, { name: 'Open' });
    const byCode = await formTicketType(t, event.eventId, {
      name: 'Speaker guest',
      visibility: 'code',
      accessCode: 'SPEAK-27',
    });
    const hidden = await formTicketType(t, event.eventId, { name: 'Staff', visibility: 'hidden' });
    expect((await page(event.slug)).text).not.toContain(`qty.${byCode}`);
    const withoutCode = await sendForm(t, event.slug, {
      [`qty.${open}`]: '0',
      [`qty.${byCode}`]: '1',
      ...formPerson(0),
      action: 'register',
    });
    expect(withoutCode.status).toBe(422);
    expect(fieldErrors(withoutCode.text)[0]).toEqual([
      'f-ticketTypes',
      'A ticket type you chose is not on sale here; some need an access code.',
    ]);
    const wrong = await sendForm(t, event.slug, { accessCode: 'GUESS', action: 'code' });
    expect(fieldErrors(wrong.text)).toEqual([['f-accessCode', 'This code opens no tickets.']]);
    const opened = await sendForm(t, event.slug, { accessCode: 'SPEAK-27', action: 'code' });
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('Your code opened: Speaker guest.');
    expect(opened.text).toContain(`name="qty.${byCode}"`);
    expect(opened.text).not.toContain(`name="qty.${hidden}"`);
    const withCode = await sendForm(t, event.slug, {
      accessCode: 'SPEAK-27',
      [`qty.${open}`]: '0',
      [`qty.${byCode}`]: '1',
      ...formPerson(0),
      action: 'register',
    });
    expect(withCode.status, withCode.text).toBe(303);
    const hiddenTry = await sendForm(t, event.slug, {
      [`qty.${hidden}`]: '1',
      ...formPerson(0),
      action: 'register',
    });
    expect(hiddenTry.status).toBe(422);
    expect((await attendeesOf(event.eventId)).map((a) => a.ticket_type_id)).toEqual([byCode]);
  });

  it('takes nothing when the form is off, the event unpublished, outside the sales window, or in the demonstration', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await formTicketType(t, event.eventId);
    await t.api(`/events/${event.eventId}/sign-up`, { key, method: 'PATCH', body: { publicForm: false } });
    expect((await page(event.slug)).text).toContain('This event does not take registrations on this page.');
    const off = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '1',
      ...formPerson(0),
      action: 'register',
    });
    expect(off.status).toBe(403);
    await t.api(`/events/${event.eventId}/sign-up`, { key, method: 'PATCH', body: { publicForm: true } });

    const later = await formTicketType(t, event.eventId, {
      name: 'Later',
      salesStartUtc: '2099-01-01T00:00:00.000Z',
    });
    const over = await formTicketType(t, event.eventId, {
      name: 'Early bird',
      salesEndUtc: '2020-01-01T00:00:00.000Z',
    });
    const shown = (await page(event.slug)).text;
    expect(shown).not.toContain(`qty.${later}`);
    expect(shown).not.toContain(`qty.${over}`);
    for (const id of [later, over])
      expect(
        (await sendForm(t, event.slug, { [`qty.${id}`]: '1', ...formPerson(0), action: 'register' })).status,
      ).toBe(422);

    await t.api(`/events/${event.eventId}/status`, { key, method: 'PUT', body: { status: 'draft' } });
    expect(
      (await sendForm(t, event.slug, { [`qty.${typeId}`]: '1', ...formPerson(0), action: 'register' }))
        .status,
    ).toBe(404);
    expect(await attendeesOf(event.eventId)).toEqual([]);

    const demo = await db()
      .selectFrom('events')
      .select(['slug', 'id'])
      .where('workspace_id', '=', demoWorkspaceId)
      .where('status', '=', 'published')
      .executeTakeFirst();
    expect(demo).toBeDefined();
    const d = demo!;
    expect((await page(d.slug)).text).toContain('Registrations are closed for the demonstration');
    const before = (await attendeesOf(d.id)).length;
    expect((await sendForm(t, d.slug, { ...formPerson(0), action: 'register' })).status).toBe(403);
    expect(await attendeesOf(d.id)).toHaveLength(before);
  });

  it('refuses quietly when the trap field is filled; limits registrations per e-mail address', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await formTicketType(t, event.eventId);
    const shown = (await page(event.slug)).text;
    expect(shown).toMatch(
      /<div class="trap"><label for="f-leave-empty">Leave this field empty<\/label><input type="text"/,
    );
    const trapped = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '1',
      ...formPerson(0),
      leaveEmpty: 'http://spam.example',
      action: 'register',
    });
    expect(trapped.status).toBe(400);
    expect(trapped.text).toContain('Your registration could not be sent.');
    expect(trapped.text).not.toContain('spam.example');
    expect(await attendeesOf(event.eventId)).toEqual([]);

    const same = {
      'person.0.firstName': 'Per',
      'person.0.lastName': 'Hansen',
      'person.0.email': 'per@example.org',
    };
    for (let i = 0; i < 5; i++)
      expect(
        (await sendForm(t, event.slug, { [`qty.${typeId}`]: '1', ...same, action: 'register' })).status,
      ).toBe(303);
    const sixth = await sendForm(t, event.slug, { [`qty.${typeId}`]: '1', ...same, action: 'register' });
    expect(sixth.status).toBe(429);
    expect(fieldErrors(sixth.text)[0]![0]).toBe('f-person-0-email');
    expect(await attendeesOf(event.eventId)).toHaveLength(5);
  });

  it('never answers 500 for bad input: an oversized body, broken encoding, stray fields', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await formTicketType(t, event.eventId);
    const token = formTokenOf((await page(event.slug)).text);
    const raw = async (body: string) =>
      (
        await t.fetch(`${t.server.origin}/e/${event.slug}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `${body}&formToken=${token}`,
        })
      ).status;
    expect(await raw(`qty.${typeId}=1&person.0.firstName=${'x'.repeat(100_000)}`)).toBe(413);
    expect(await raw(`qty.${typeId}=%E0%A4%A&person.0.email=%ZZ`)).toBe(422);
    expect(await raw('person.99.firstName=A&person.0.answers.nope=1&qty.nope=3&action=register')).toBe(422);
    expect(await raw(`qty.${typeId}=1e3&action=register`)).toBe(422);
    expect(await attendeesOf(event.eventId)).toEqual([]);
  });

  it('limits registrations per client address (TESSERA_SIGN_UP_ADDRESS_LIMIT)', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await formTicketType(t, event.eventId);
    // Earlier cases of this file counted from this address too: send until refused.
    let sent = 0;
    let last = 0;
    while (sent < 41) {
      last = (await sendForm(t, event.slug, { [`qty.${typeId}`]: '1', ...formPerson(0), action: 'register' }))
        .status;
      if (last === 429) break;
      sent += 1;
    }
    expect(last).toBe(429);
    expect(sent).toBeLessThan(40);
  });
});
