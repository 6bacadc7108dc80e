// Sign-up settings (issue 27): GET answers the defaults for an event without a row, PATCH writes
// the row on the first change with If-Match (412 when stale), a strict body and every bad field
// named; events:read to read, events:write to change; refused in the demonstration workspace; the
// same through the MCP tools.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspaceId } from '../../core/admin/demo-workspace';
import { expectProblem } from '../support/fixtures';
import { callTool, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let writer: string;
let reader: string;
let eventId: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Sign-up settings', true));
  ({ key: writer } = await t.key({ workspaceId, scopes: ['events:write'], expires: 'never' }));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' }));
  eventId = sampleIds(workspaceId).event('meetup');
});
afterAll(async () => t.close());

const path = () => `/events/${eventId}/sign-up`;
const rows = () =>
  t.server.services.db.selectFrom('event_sign_up').selectAll().where('event_id', '=', eventId).execute();

describe('sign-up settings', () => {
  it('answers the defaults for an event without a row, and writes none for reading', async () => {
    const res = await t.api(path(), { key: reader });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      eventId,
      publicForm: true,
      paymentInstructions: null,
      sendEmails: true,
      waitingListOfferHours: 48,
    });
    expect(res.headers.get('etag')).toMatch(/"/);
    expect(await rows()).toEqual([]);
  });

  it('changes with If-Match (412 when stale), refusing bad and unknown fields', async () => {
    const current = await t.api(path(), { key: reader });
    const bad = await t.api(path(), {
      key: writer,
      method: 'PATCH',
      body: { publicForm: 'yes', paymentInstructions: '  ', sendEmails: 1 },
    });
    expect(
      expectProblem(bad, 400, 'invalidBody')
        .errors.map((e: any) => e.field)
        .sort(),
    ).toEqual(['paymentInstructions', 'publicForm', 'sendEmails']);
    const unknown = await t.api(path(), {
      key: writer,
      method: 'PATCH',
      body: { iban: 'NO93 8601 1117 947' },
    });
    expect(expectProblem(unknown, 400, 'invalidRequest').errors[0].field).toBe('iban');
    expect(await rows()).toEqual([]);

    const set = await t.api(path(), {
      key: writer,
      method: 'PATCH',
      headers: { 'if-match': current.headers.get('etag')! },
      body: {
        publicForm: false,
        paymentInstructions: 'Pay to NO93 8601 1117 947, quote the order reference.',
      },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({
      eventId,
      publicForm: false,
      paymentInstructions: 'Pay to NO93 8601 1117 947, quote the order reference.',
      sendEmails: true,
      waitingListOfferHours: 48,
    });
    expect(await rows()).toMatchObject([{ workspace_id: workspaceId, public_form: 0, send_emails: 1 }]);
    const stale = await t.api(path(), {
      key: writer,
      method: 'PATCH',
      headers: { 'if-match': current.headers.get('etag')! },
      body: { sendEmails: false },
    });
    expectProblem(stale, 412, 'preconditionFailed');
    const cleared = await t.api(path(), {
      key: writer,
      method: 'PATCH',
      headers: { 'if-match': set.headers.get('etag')! },
      body: { paymentInstructions: null, sendEmails: false, publicForm: true },
    });
    expect(cleared.body).toEqual({
      eventId,
      publicForm: true,
      paymentInstructions: null,
      sendEmails: false,
      waitingListOfferHours: 48,
    });
    expect((await t.api(path(), { key: reader })).body).toEqual(cleared.body);
  });

  it('needs events:read to read and events:write to change; refused in the demonstration workspace', async () => {
    const { key: other } = await t.key({ workspaceId, scopes: ['attendees:write'], expires: 'never' });
    expectProblem(await t.api(path(), { key: other }), 403, 'missingScope');
    expectProblem(
      await t.api(path(), { key: reader, method: 'PATCH', body: { sendEmails: true } }),
      403,
      'missingScope',
    );
    const demoEvent = await t.server.services.db
      .selectFrom('events')
      .select('id')
      .where('workspace_id', '=', demoWorkspaceId)
      .executeTakeFirstOrThrow();
    const demo = t.server.demoKey;
    expect((await t.api(`/events/${demoEvent.id}/sign-up`, { key: demo })).status).toBe(200);
    expectProblem(
      await t.api(`/events/${demoEvent.id}/sign-up`, {
        key: demo,
        method: 'PATCH',
        body: { publicForm: false },
      }),
      403,
      'demoWorkspace',
    );
  });

  it('reads and changes through the MCP tools, with ifMatch', async () => {
    const client = await t.mcp(writer);
    const read = await callTool(client, 'get_sign_up', { eventId });
    expect(read.isError).toBe(false);
    const result = (await client.callTool({ name: 'get_sign_up', arguments: { eventId } })) as any;
    const etag = result._meta?.etag as string;
    expect(etag).toMatch(/"/);
    const stale = await callTool(client, 'update_sign_up', {
      eventId,
      ifMatch: '"stale"',
      publicForm: false,
    });
    expect(stale.isError).toBe(true);
    expect(stale.data.code).toBe('preconditionFailed');
    const changed = await callTool(client, 'update_sign_up', {
      eventId,
      ifMatch: etag,
      paymentInstructions: 'Bank account 1234.56.78903',
    });
    expect(changed.isError, JSON.stringify(changed.data)).toBe(false);
    expect(changed.data).toMatchObject({ paymentInstructions: 'Bank account 1234.56.78903' });
    await client.close();
  });
});
