// Erasure reaches everywhere a person appears ("nulls everything personal everywhere it
// appears"): as a pass holder and as a speaker too, not only as attendee and buyer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
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
