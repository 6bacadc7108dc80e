// Add-ons on the public registration form (issue 27 item 4), sent as a browser without script
// sends it: per person, the add-ons on offer as labelled checkboxes with their prices (not sold
// out, not those the ticket includes); a free add-on keeps the registration free, a priced one
// makes the order one awaiting a bank transfer; a refusal stands beside the add-ons.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOnTaken, insertAddOn } from '../support/add-ons';
import { addTicketType } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { formPerson, publishedEvent, sendForm } from '../support/sign-up';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Add-ons on the form', false);
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

const db = () => t.server.services.db;
const page = async (slug: string) => (await t.fetch(`${t.server.origin}/e/${slug}`)).text();
const checkbox = (field: string, addOnId: string) =>
  new RegExp(
    `<label class="choice"><input type="checkbox" name="${field.replace(/\./g, '\\.')}" value="${addOnId}">`,
  );

async function formEvent() {
  const event = await publishedEvent(t, key);
  const typeId = await addTicketType(t, event.eventId, { name: 'Day pass' });
  const tour = await insertAddOn(db(), event.eventId, { name: 'City tour', capacity: 2 });
  const dinner = await insertAddOn(db(), event.eventId, { name: 'Dinner', priceMinor: 4_500, vatRate: 25 });
  const gone = await insertAddOn(db(), event.eventId, { name: 'Boat trip', capacity: 1 });
  await db().updateTable('add_ons').set({ taken: 1 }).where('id', '=', gone).execute();
  return { ...event, typeId, tour, dinner, gone };
}

describe('add-ons on the public form', () => {
  it('are offered per person as labelled checkboxes with prices; a sold-out one is not', async () => {
    const e = await formEvent();
    const html = await page(e.slug);
    expect(html).toMatch(checkbox('person.0.addOns', e.tour));
    expect(html).toMatch(checkbox('person.0.addOns', e.dinner));
    expect(html).toContain('City tour · Free · 2 left');
    expect(html).toContain('Dinner · €45.00');
    expect(html).toContain('<legend>Add-ons (optional)</legend>');
    expect(html).not.toContain(e.gone);
  });

  it('register a free add-on with a free ticket, its place taken', async () => {
    const e = await formEvent();
    const sent = await sendForm(t, e.slug, {
      [`qty.${e.typeId}`]: '1',
      ...formPerson(0),
      'person.0.addOns': e.tour,
      action: 'register',
    });
    expect(sent.status, sent.text).toBe(303);
    expect(sent.location).toMatch(new RegExp(`^/e/${e.slug}/registered\\?t=[A-Z2-7]{26}$`));
    const code = sent.location!.split('t=')[1]!;
    const rows = await db()
      .selectFrom('attendee_add_ons')
      .innerJoin('attendees', 'attendees.id', 'attendee_add_ons.attendee_id')
      .select(['attendee_add_ons.add_on_id', 'attendee_add_ons.quantity'])
      .where('attendees.ticket_code', '=', code)
      .execute();
    expect(rows).toEqual([{ add_on_id: e.tour, quantity: 1 }]);
    expect(await addOnTaken(db(), e.tour)).toBe(1);
  });

  it('make the order one awaiting transfer when a priced add-on is chosen, priced with its VAT', async () => {
    const e = await formEvent();
    const sent = await sendForm(t, e.slug, {
      [`qty.${e.typeId}`]: '1',
      ...formPerson(0),
      'person.0.addOns': [e.dinner, e.tour],
      action: 'register',
    });
    expect(sent.status, sent.text).toBe(303);
    expect(sent.location).toMatch(new RegExp(`^/e/${e.slug}/orders/[0-9a-f-]{36}$`));
    const order = await db()
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', sent.location!.split('/').pop()!)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      status: 'transfer',
      total_minor: 4_500,
      vat_minor: 900,
      source: 'registration',
    });
    expect(await addOnTaken(db(), e.dinner)).toBe(1);
    expect(await addOnTaken(db(), e.tour)).toBe(1);
  });

  it('ask each person of several tickets, and say beside the add-ons when one is no longer on offer', async () => {
    const e = await formEvent();
    const step2 = await sendForm(t, e.slug, {
      [`qty.${e.typeId}`]: '2',
      ...formPerson(0),
      action: 'register',
    });
    expect(step2.status).toBe(200);
    expect(step2.text).toMatch(checkbox('person.0.addOns', e.tour));
    expect(step2.text).toMatch(checkbox('person.1.addOns', e.tour));
    // A person ticks the last places of the tour, and a sold-out boat trip (a stale page).
    const refused = await sendForm(t, e.slug, {
      [`qty.${e.typeId}`]: '2',
      step: '2',
      ...formPerson(0),
      ...formPerson(1),
      'person.1.addOns': [e.tour, e.gone],
      action: 'register',
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain(
      '<p class="field-error" id="f-person-1-addOns-error">That add-on is not on offer here.</p>',
    );
    expect(refused.text).toContain(
      'aria-describedby="f-person-1-addOns-hint f-person-1-addOns-error" aria-invalid="true"',
    );
    expect(refused.text).toContain(
      '<a href="#f-person-1-addOns">Ticket 2, Add-ons: That add-on is not on offer here.</a>',
    );
    // What was ticked stays ticked.
    expect(refused.text).toContain(`value="${e.tour}" checked`);
    expect(await addOnTaken(db(), e.tour)).toBe(0);

    // Both people take the two places left.
    const ok = await sendForm(t, e.slug, {
      [`qty.${e.typeId}`]: '2',
      step: '2',
      ...formPerson(0),
      ...formPerson(1),
      'person.0.addOns': e.tour,
      'person.1.addOns': e.tour,
      action: 'register',
    });
    expect(ok.status, ok.text).toBe(303);
    expect(await addOnTaken(db(), e.tour)).toBe(2);
  });

  it('say beside the add-ons when fewer places are left than people ticked (addOnSoldOut), nothing taken', async () => {
    const e = await formEvent();
    await db().updateTable('add_ons').set({ taken: 1 }).where('id', '=', e.tour).execute();
    const refused = await sendForm(t, e.slug, {
      [`qty.${e.typeId}`]: '2',
      step: '2',
      ...formPerson(0),
      ...formPerson(1),
      'person.0.addOns': e.tour,
      'person.1.addOns': e.tour,
      action: 'register',
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain(
      '<p class="field-error" id="f-person-0-addOns-error">This add-on has sold out; register without it or try another.</p>',
    );
    expect(await addOnTaken(db(), e.tour)).toBe(1);
    const typeTaken = await db()
      .selectFrom('ticket_types')
      .select('taken')
      .where('id', '=', e.typeId)
      .executeTakeFirstOrThrow();
    expect(typeTaken.taken).toBe(0);
  });

  it('do not offer an add-on the ticket type already includes', async () => {
    const e = await formEvent();
    await db()
      .updateTable('ticket_types')
      .set({ included_add_on_ids: JSON.stringify([e.tour]) })
      .where('id', '=', e.typeId)
      .execute();
    const html = await page(e.slug);
    expect(html).not.toMatch(checkbox('person.0.addOns', e.tour));
    expect(html).toMatch(checkbox('person.0.addOns', e.dinner));
  });
});
