// One wording for a holder whose personal data was erased, wherever a holder's name is shown: the
// page a registration ends on (/e/{slug}/registered, which showed "null null"), the ticket's page
// and its calendar file all say the name was removed at the holder's request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasedHolderWords, holderName, holderWords } from '../../core/platform/holder-name';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let key: string;
let e: DoorEvent;
let slug: string;
let erased: { code: string; firstName: string };
let kept: { code: string; firstName: string; lastName: string };

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Erased holders');
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  e = await seedDoorEvent(t, workspaceId, key);
  slug = (await t.api(`/events/${e.eventId}/status`, { key, method: 'PUT', body: { status: 'published' } }))
    .body.slug;
  const [gone, stays] = await e.register(e.general, 2);
  const view = async (id: string) => (await t.api(`/events/${e.eventId}/attendees/${id}`, { key })).body;
  const before = await view(gone!);
  erased = { code: before.ticketCode, firstName: before.firstName };
  kept = await view(stays!).then((a) => ({
    code: a.ticketCode,
    firstName: a.firstName,
    lastName: a.lastName,
  }));
  const erasure = await t.api('/people/erasure', { key, method: 'POST', body: { attendeeId: gone } });
  expect(erasure.status, JSON.stringify(erasure.body)).toBe(200);
});
afterAll(async () => t?.close());

const get = async (path: string) => {
  const res = await t.fetch(`${t.server.origin}${path}`);
  expect(res.status, path).toBe(200);
  return res.text();
};
/** The page's text without tags, spaces collapsed. */
const textOf = (page: string) =>
  page
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/ ,/g, ',');

describe('an erased holder', () => {
  it('reads "Name removed at the holder’s request" on /e/{slug}/registered, never "null null"', async () => {
    const text = textOf(await get(`/e/${slug}/registered?t=${erased.code}&t=${kept.code}`));
    expect(text).toContain(`${erasedHolderWords}, General`);
    expect(text).not.toContain('null');
    expect(text).not.toContain(erased.firstName);
    // A holder not erased is still named.
    expect(text).toContain(`${kept.firstName} ${kept.lastName}, General`);
  });

  it('reads the same on the ticket page and in its calendar file', async () => {
    expect(textOf(await get(`/t/${erased.code}`))).toContain(erasedHolderWords);
    const ics = (await get(`/t/${erased.code}.ics`)).replace(/\r\n /g, '');
    expect(ics).toContain(`For: ${erasedHolderWords}`);
    expect(ics).not.toContain(erased.firstName);
    expect((await get(`/t/${kept.code}.ics`)).replace(/\r\n /g, '')).toContain(
      `For: ${kept.firstName} ${kept.lastName}`,
    );
  });

  it('is named by one helper: the name, else why there is none', () => {
    expect(holderName({ first_name: 'Ada', last_name: 'Lovelace', erased: 0 })).toBe('Ada Lovelace');
    expect(holderName({ first_name: 'Ada', last_name: null, erased: 0 })).toBe('Ada');
    expect(holderName({ first_name: null, last_name: null, erased: 1 })).toBeNull();
    expect(holderWords(null, true)).toBe('Name removed at the holder’s request');
    expect(holderWords(null, false)).toBe('Not named');
    expect(holderWords('Ada', false)).toBe('Ada');
  });
});
