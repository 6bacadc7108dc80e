// The form's messages name the field they are about by its visible label (issue 50): in the summary
// at the top each message reads "<label>: <message>", never "Field: …": the access code, each
// person's fields on the page with a person per ticket (which ticket too), and a field the page
// does not show right now.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignUpOffer } from '../../core/events/sign-up-offer';
import { fieldLabel } from '../../rest/pages/sign-up-form';
import { startTestServer, type TestServer } from '../support/server';
import { formPerson, formQuestion, formTicketType, publishedEvent, sendForm } from '../support/sign-up';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Form labels', false);
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t?.close());

/** The summary's entries: the field each links to and what it reads. */
const summaryOf = (text: string) =>
  [
    ...(/<div class="error-summary"[\s\S]*?<\/div>/.exec(text)?.[0] ?? '').matchAll(
      /<a href="#([^"]+)">([^<]*)<\/a>/g,
    ),
  ].map((m) => [m[1], m[2]]);

describe('the summary of the form', () => {
  it('names the access code field: "Access code: This code opens no tickets."', async () => {
    const event = await publishedEvent(t, key);
    await formTicketType(t, event.eventId, { name: 'Open' });
    const wrong = await sendForm(t, event.slug, { accessCode: 'GUESS', action: 'code' });
    expect(wrong.status).toBe(422);
    expect(summaryOf(wrong.text)).toEqual([['f-accessCode', 'Access code: This code opens no tickets.']]);
  });

  it('names each field by its label, and with a person per ticket whose ticket it is', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await formTicketType(t, event.eventId, { name: 'Seat', maxPerOrder: 4 });
    await formQuestion(t, event.eventId, { label: 'Dietary needs', kind: 'text', required: true });
    const one = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '1',
      ...formPerson(0, { email: 'not-an-address' }),
      action: 'register',
    });
    expect(summaryOf(one.text).map(([, text]) => text)).toEqual([
      'E-mail: Enter an e-mail address such as name@example.org.',
      'Dietary needs: This is required.',
    ]);
    const two = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '2',
      step: '2',
      ...formPerson(0),
      ...formPerson(1, { email: 'not-an-address' }),
      action: 'register',
    });
    const texts = summaryOf(two.text).map(([, text]) => text);
    expect(texts).toContain('Ticket 2, E-mail: Enter an e-mail address such as name@example.org.');
    expect(texts).toContain('Ticket 1, Dietary needs: This is required.');
    expect(texts.join('\n')).not.toMatch(/^Field:/m);
  });

  it('names a field the page does not show by its label, never "Field"', () => {
    const offer = {
      types: [{ ticketTypeId: 't1', name: 'Workshop' }],
      questions: [{ questionId: 'q1', label: { en: 'T-shirt size' } }],
    } as unknown as SignUpOffer;
    expect(fieldLabel(offer, 'accessCode')).toBe('Access code');
    expect(fieldLabel(offer, 'qty.t1')).toBe('Workshop');
    expect(fieldLabel(offer, 'qty.gone')).toBe('Tickets');
    expect(fieldLabel(offer, 'person.3.firstName')).toBe('First name');
    expect(fieldLabel(offer, 'person.3.lastName')).toBe('Last name');
    expect(fieldLabel(offer, 'person.3.email')).toBe('E-mail');
    expect(fieldLabel(offer, 'person.3.addOns')).toBe('Add-ons');
    expect(fieldLabel(offer, 'person.0.answers.q1')).toBe('T-shirt size');
    expect(fieldLabel(offer, 'person.0.answers.q1.0')).toBe('T-shirt size');
    expect(fieldLabel(offer, 'person.0.ticketTypeId')).toBe('Your details');
    expect(fieldLabel(offer, 'ticketTypes')).toBe('Tickets');
    expect(fieldLabel(offer, 'attendees')).toBe('Tickets');
  });
});
