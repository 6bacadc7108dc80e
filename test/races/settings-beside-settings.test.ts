// An event's sign-up and invoicing settings and its call for speakers are one row each, perhaps not written yet,
// and a change writes the whole row back from what it read. Two changes of different fields at
// once each wrote back what it had read, so one was answered and then lost (or, for the call's
// window, two changes each right alone left it closing before it opens). Each change now locks the
// event's row first (core/platform/pipeline/load-event.ts loadEventForChange): the change held
// once it has read, while another runs to its end, reads that one's and keeps both.
import { describe, expect, it } from 'vitest';
import { updateCallForSpeakers } from '../../core/cfp/update-call';
import { createEvent } from '../../core/events/create-event';
import { updateSignUp } from '../../core/events/update-sign-up';
import { updateInvoicing } from '../../core/finance/update-invoicing';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, heldOrInTurn } = raceHarness('Settings beside settings');

describe('two changes of one settings row', () => {
  it('invoicing: the held change keeps the other one', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const [held, other] = await heldOrInTurn(
      [updateInvoicing, { eventId, footer: 'Thank you for coming.' }],
      [updateInvoicing, { eventId, prefix: 'NS-2027-' }],
    );
    expect(other).toMatchObject({ prefix: 'NS-2027-' });
    expect(held).toMatchObject({ footer: 'Thank you for coming.', prefix: 'NS-2027-' });
  });

  it('sign-up: the held change keeps the other one', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const [held, other] = await heldOrInTurn(
      [updateSignUp, { eventId, paymentInstructions: 'Pay to account 1234.' }],
      [updateSignUp, { eventId, publicForm: false }],
    );
    expect(other).toMatchObject({ publicForm: false });
    expect(held).toMatchObject({ paymentInstructions: 'Pay to account 1234.', publicForm: false });
  });

  it('the call for speakers: the held change keeps the other one', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const [held, other] = await heldOrInTurn(
      [updateCallForSpeakers, { eventId, formats: ['talk'] }],
      [updateCallForSpeakers, { eventId, opensLocal: '2027-01-10T09:00' }],
    );
    expect(other).toMatchObject({ opensLocal: '2027-01-10T09:00' });
    expect(held).toMatchObject({ formats: ['talk'], opensLocal: '2027-01-10T09:00' });
  });

  it("the call's window: a later opening beside an earlier closing, the held one refused", async () => {
    const { eventId } = await call(createEvent, eventBody());
    await call(updateCallForSpeakers, {
      eventId,
      opensLocal: '2027-01-10T09:00',
      closesLocal: '2027-03-01T17:00',
    });
    const [held, other] = await heldOrInTurn(
      [updateCallForSpeakers, { eventId, opensLocal: '2027-02-15T09:00' }],
      [updateCallForSpeakers, { eventId, closesLocal: '2027-02-01T17:00' }],
    );
    expect(other).toMatchObject({ opensLocal: '2027-01-10T09:00', closesLocal: '2027-02-01T17:00' });
    expect(held).toBe('invalidRequest');
  });
});
