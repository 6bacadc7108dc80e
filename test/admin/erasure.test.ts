// Erasure reaches everywhere a person appears ("nulls everything personal everywhere it
// appears"): as a pass holder and as a speaker too, not only as attendee and buyer; the tickets sent
// to the address in every event, and none whose address merely holds it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { addTicketType, person, register, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Erasure', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

const operator = () => operatorContext(t.server.services, workspaceId);

describe('erasing a person', () => {
  it('erases them as a pass holder: names gone from the holders list, even with people:read', async () => {
    const db = t.server.services.db;
    const holder = await db
      .selectFrom('pass_holders')
      .select(['id', 'pass_id', 'email'])
      .where('workspace_id', '=', workspaceId)
      .where('email', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const result = await erasePerson(await operator(), { email: holder.email! });
    expect(result.passHolders).toBe(1);
    const list = await t.api(`/passes/${holder.pass_id}/holders?limit=500`, { key });
    const seen = list.body.data.find((h: any) => h.holderId === holder.id);
    expect(seen).toMatchObject({ firstName: null, lastName: null, erased: true, personalData: 'erased' });
    const row = await db
      .selectFrom('pass_holders')
      .selectAll()
      .where('id', '=', holder.id)
      .executeTakeFirstOrThrow();
    expect([row.first_name, row.last_name, row.email]).toEqual([null, null, null]);
  });

  it("erases their tickets in every event, and no one's whose address holds theirs", async () => {
    // SQLite finds the tickets through the search index, which names such addresses too.
    const ids = sampleIds(workspaceId);
    const address = `bea.${Date.now()}@example.org`;
    const others = [`jo${address}`, `${address}.uk`, address.replace('@', '@mail.')];
    const registered: { attendeeId: string; email: string }[] = [];
    for (const event of [ids.event('summit'), ids.event('meetup')]) {
      const typeId = await addTicketType(t, event);
      const res = await register(
        t,
        key,
        event,
        [address, ...others].map((email) => person(typeId, { email })),
      );
      expect(res.status).toBe(201);
      registered.push(...res.body.attendees);
    }
    const result = await erasePerson(await operator(), { email: address.toUpperCase() });
    expect(result.attendees).toBe(2);
    const rows = await t.server.services.db
      .selectFrom('attendees')
      .select(['id', 'email', 'erased'])
      .where(
        'id',
        'in',
        registered.map((a) => a.attendeeId),
      )
      .execute();
    const email = new Map(rows.map((r) => [r.id, r.email]));
    for (const a of registered) expect(email.get(a.attendeeId)).toBe(a.email === address ? null : a.email);
  });

  it('erases them as a speaker: nothing about them is shown any more, their sessions remain', async () => {
    const db = t.server.services.db;
    const speaker = await db
      .selectFrom('speakers')
      .select(['id', 'event_id', 'email'])
      .where('workspace_id', '=', workspaceId)
      .where('email', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const before = (await t.api(`/events/${speaker.event_id}/speakers?limit=500`, { key })).body.data.find(
      (s: any) => s.speakerId === speaker.id,
    );
    expect(before.email).toBe(speaker.email);
    const result = await erasePerson(await operator(), { email: speaker.email! });
    expect(result.speakers).toBe(1);
    const after = (await t.api(`/events/${speaker.event_id}/speakers?limit=500`, { key })).body.data.find(
      (s: any) => s.speakerId === speaker.id,
    );
    expect(after).toMatchObject({
      name: null,
      email: null,
      company: null,
      erased: true,
      personalData: 'erased',
    });
    expect(after.sessionIds).toEqual(before.sessionIds);
  });
});
