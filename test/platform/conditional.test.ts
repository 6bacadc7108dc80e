// Conditional requests (spec "Common conventions"): ETag on single-resource GETs, If-None-Match
// answering 304 with no body, If-Match on a PATCH answering 412 preconditionFailed when stale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let writer: string;
let eventId: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Conditional workspace', true);
  ({ key: writer } = await t.key({ workspaceId, scopes: ['events:write'] }));
  eventId = (await t.api('/events', { key: writer })).body.data[0].eventId;
});
afterAll(async () => t.close());

const read = (headers: Record<string, string> = {}) => t.api(`/events/${eventId}`, { key: writer, headers });
const patch = (body: unknown, headers: Record<string, string> = {}) =>
  t.api(`/events/${eventId}`, { key: writer, method: 'PATCH', body, headers });

describe('ETag and If-None-Match', () => {
  it('answers GET /events/{eventId} with a strong ETag', async () => {
    const res = await read();
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
  });

  it('gives the same ETag while the event does not change', async () => {
    expect((await read()).headers.get('etag')).toBe((await read()).headers.get('etag'));
  });

  it('answers 304 with no body when If-None-Match names the current ETag', async () => {
    const etag = (await read()).headers.get('etag')!;
    const res = await t.fetch(`${t.server.origin}/api/v1/events/${eventId}`, {
      headers: { authorization: `Bearer ${writer}`, 'if-none-match': etag },
    });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
    expect(res.headers.get('etag')).toBe(etag);
  });

  it('answers 304 for a list of tags that includes the current one, and for a weak form of it', async () => {
    const etag = (await read()).headers.get('etag')!;
    expect((await read({ 'if-none-match': `"old", ${etag}` })).status).toBe(304);
    expect((await read({ 'if-none-match': `W/${etag}` })).status).toBe(304);
  });

  it('answers 200 with the event when If-None-Match names another tag', async () => {
    const res = await read({ 'if-none-match': '"not-the-current-one"' });
    expect(res.status).toBe(200);
    expect(res.body.eventId).toBe(eventId);
  });

  it('changes the ETag after a PATCH, so the old one no longer gives 304', async () => {
    const before = (await read()).headers.get('etag')!;
    expect((await patch({ name: 'Renamed for the ETag test' })).status).toBe(200);
    const after = await read({ 'if-none-match': before });
    expect(after.status).toBe(200);
    expect(after.body.name).toBe('Renamed for the ETag test');
    expect(after.headers.get('etag')).not.toBe(before);
  });
});

describe('If-Match on PATCH', () => {
  it('refuses a PATCH with a stale If-Match with 412 preconditionFailed and changes nothing', async () => {
    const stale = (await read()).headers.get('etag')!;
    expect((await patch({ name: 'Changed by someone else' })).status).toBe(200);
    const current = (await read()).headers.get('etag')!;
    const res = await patch({ name: 'Lost update' }, { 'if-match': stale });
    const body = expectProblem(res, 412, 'preconditionFailed');
    expect(body.etag).toBe(current);
    expect((await read()).body.name).toBe('Changed by someone else');
  });

  it('accepts a PATCH whose If-Match is the current ETag', async () => {
    const etag = (await read()).headers.get('etag')!;
    const res = await patch({ name: 'Matched update' }, { 'if-match': etag });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Matched update');
    const again = await patch({ name: 'Second with the same tag' }, { 'if-match': etag });
    expectProblem(again, 412, 'preconditionFailed');
  });

  it('accepts a PATCH without If-Match', async () => {
    expect((await patch({ name: 'Unconditional update' })).status).toBe(200);
  });

  it('accepts If-Match: * for an event that exists', async () => {
    expect((await patch({ name: 'Star update' }, { 'if-match': '*' })).status).toBe(200);
  });
});
