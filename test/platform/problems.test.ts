// Problems (spec "Errors"): every refusal is application/problem+json with type, title, status,
// detail, instance, code, traceId and error; unknown paths and methods answer problems too; the
// developer pages list every code and every route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemCatalogue } from '../../core/platform/problems';
import { eventBody, expectProblem } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let writer: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Problems workspace');
  ({ key: writer } = await t.key({ workspaceId, scopes: ['events:write'] }));
});
afterAll(async () => t.close());

describe('problem members', () => {
  it('gives every refusal type, title, status, detail, instance, code, traceId and error (= detail)', async () => {
    const res = await t.api('/me');
    const body = expectProblem(res, 401, 'invalidKey');
    expect(body.type).toBe(`${t.server.origin}/developers/errors#invalidKey`);
    expect(body.instance).toBe('/api/v1/me');
  });

  it('sends the traceId in the X-Trace-Id header too, different for each request', async () => {
    const a = await t.api('/me');
    const b = await t.api('/me');
    expect(a.headers.get('x-trace-id')).toBe(a.body.traceId);
    expect(b.headers.get('x-trace-id')).toBe(b.body.traceId);
    expect(a.body.traceId).not.toBe(b.body.traceId);
  });

  it('sends a trace id on successful answers as well', async () => {
    const res = await t.api('/me', { key: writer });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-trace-id')).toMatch(/^\S{8,}$/);
  });

  it('keeps the query string out of instance', async () => {
    const res = await t.api('/events?status=published&limit=2');
    expectProblem(res, 401, 'invalidKey');
    expect(res.body.instance).toBe('/api/v1/events');
  });

  it('uses the catalogue title and the code status for the code', async () => {
    const res = await t.api('/events', {
      key: writer,
      method: 'POST',
      rawBody: '{',
      headers: { 'content-type': 'application/json' },
    });
    const body = expectProblem(res, 400, 'invalidBody');
    expect(body.title).toBe(problemCatalogue.invalidBody.title);
  });
});

describe('unknown paths and methods', () => {
  it('answers an unknown path below the API with 404 notFound as a problem', async () => {
    const res = await t.api('/no-such-thing', { key: writer });
    const body = expectProblem(res, 404, 'notFound');
    expect(body.instance).toBe('/api/v1/no-such-thing');
  });

  it('answers an unknown path outside the API with 404 notFound as a problem', async () => {
    expectProblem(await t.api('//nowhere'), 404, 'notFound');
  });

  it('answers a method a path does not take with 405 methodNotAllowed and an Allow header', async () => {
    const res = await t.api('/me', { key: writer, method: 'DELETE' });
    expectProblem(res, 405, 'methodNotAllowed');
    expect(res.headers.get('allow')).toMatch(/GET/);
  });

  it('answers PUT /events with 405 methodNotAllowed naming GET and POST as allowed', async () => {
    const res = await t.api('/events', { key: writer, method: 'PUT', body: {} });
    expectProblem(res, 405, 'methodNotAllowed');
    const allow = (res.headers.get('allow') ?? '').split(/,\s*/);
    expect(allow).toEqual(expect.arrayContaining(['GET', 'POST']));
  });
});

describe('bodies and fields', () => {
  it('refuses a body that is not JSON with 400 invalidBody', async () => {
    const res = await t.api('/events', {
      key: writer,
      method: 'POST',
      rawBody: '{"name": "half',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(res, 400, 'invalidBody');
  });

  it('refuses a JSON body that is not an object with 400 invalidBody', async () => {
    const res = await t.api('/events', { key: writer, method: 'POST', body: [eventBody()] });
    expectProblem(res, 400, 'invalidBody');
  });

  it('refuses a body sent as another content type with 400 invalidBody', async () => {
    const res = await t.api('/events', {
      key: writer,
      method: 'POST',
      rawBody: 'name=Party',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectProblem(res, 400, 'invalidBody');
  });

  it('refuses a body larger than 1 MB with 413 payloadTooLarge', async () => {
    const res = await t.api('/events', {
      key: writer,
      method: 'POST',
      body: eventBody({ name: 'x'.repeat(1_100_000) }),
    });
    expectProblem(res, 413, 'payloadTooLarge');
  });

  it('accepts a PATCH body sent as application/merge-patch+json, as the OpenAPI document offers', async () => {
    const created = await t.api('/events', { key: writer, method: 'POST', body: eventBody() });
    expect(created.status).toBe(201);
    const res = await t.api(`/events/${created.body.eventId}`, {
      key: writer,
      method: 'PATCH',
      rawBody: JSON.stringify({ name: 'Merge-patched' }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Merge-patched');
  });

  it('refuses a field of the wrong type with 400 invalidBody listing the field in errors', async () => {
    const res = await t.api('/events', { key: writer, method: 'POST', body: eventBody({ name: 42 }) });
    const body = expectProblem(res, 400, 'invalidBody');
    expect(body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'name' })]));
    for (const e of body.errors) expect(typeof e.message).toBe('string');
  });

  it('refuses missing fields with 400 invalidRequest listing each as { field, message }', async () => {
    const res = await t.api('/events', {
      key: writer,
      method: 'POST',
      body: { name: 'No zone, no currency' },
    });
    const body = expectProblem(res, 400, 'invalidRequest');
    const fields = body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['timeZone', 'currency']));
    for (const e of body.errors) {
      expect(Object.keys(e).sort()).toEqual(['field', 'message']);
      expect(e.message.length).toBeGreaterThan(0);
    }
  });

  it('refuses an event without start and end with 400 invalidRequest naming both', async () => {
    const res = await t.api('/events', {
      key: writer,
      method: 'POST',
      body: eventBody({ startsLocal: undefined, endsLocal: undefined }),
    });
    const body = expectProblem(res, 400, 'invalidRequest');
    expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['endsLocal', 'startsLocal']);
  });

  it('refuses a wrong value (not a time zone) with 400 invalidRequest naming the field', async () => {
    const res = await t.api('/events', {
      key: writer,
      method: 'POST',
      body: eventBody({ timeZone: 'Mars/Olympus' }),
    });
    const body = expectProblem(res, 400, 'invalidRequest');
    expect(body.errors[0]).toEqual({ field: 'timeZone', message: expect.stringContaining('Mars/Olympus') });
    // The times were sent: they are not reported as missing.
    expect(body.errors).not.toContainEqual(
      expect.objectContaining({ message: expect.stringMatching(/^Give/) }),
    );
  });

  it('refuses a bad query parameter with 400 invalidRequest', async () => {
    const res = await t.api('/events?limit=many', { key: writer });
    const body = expectProblem(res, 400, 'invalidRequest');
    expect(body.errors[0].field).toBe('limit');
  });

  it('refuses an event id that is not a UUID with 400 invalidRequest', async () => {
    const res = await t.api('/events/not-a-uuid', { key: writer });
    const body = expectProblem(res, 400, 'invalidRequest');
    expect(body.errors[0].field).toBe('eventId');
  });
});

/** An attribute's value as the browser reads it. */
const decodeHtml = (text: string) =>
  text.replace(
    /&(quot|#39|lt|gt|amp);/g,
    (_, e: string) => ({ quot: '"', '#39': "'", lt: '<', gt: '>', amp: '&' })[e]!,
  );

describe('developer pages', () => {
  it('serves /developers/errors with an anchor for every code of the catalogue', async () => {
    const res = await t.fetch(`${t.server.origin}/developers/errors`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    for (const [code, entry] of Object.entries(problemCatalogue)) {
      expect(html, code).toContain(`id="${code}"`);
      expect(html).toContain(entry.title.replace(/'/g, '&#39;'));
    }
  });

  it('links every problem type to an anchor that exists on /developers/errors', async () => {
    const res = await t.api('/me');
    const url = new URL(res.body.type);
    const page = await (await t.fetch(`${url.origin}${url.pathname}`)).text();
    expect(page).toContain(`id="${url.hash.slice(1)}"`);
  });

  it('serves /developers: the reference rendered from the OpenAPI document by a script of its own, no CDN', async () => {
    const res = await t.fetch(`${t.server.origin}/developers`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const html = await res.text();
    const configuration = JSON.parse(
      decodeHtml(/id="api-reference"[^>]*data-configuration="([^"]+)"/.exec(html)![1]!),
    );
    expect(configuration).toMatchObject({
      url: '/api/v1/openapi.json',
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      persistAuth: false,
    });
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual([expect.stringMatching(/^\/developers\/assets\/scalar\.js\?v=[\w-]{22}$/)]);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[a-z]/i);
    // By the version the page names, the bundle is kept for good; by any other address, checked again.
    const script = await t.fetch(`${t.server.origin}${scripts[0]}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(script.headers.get('etag')).toBe(`W/"${scripts[0]!.split('v=')[1]}"`);
    const bytes = await script.arrayBuffer();
    expect(bytes.byteLength).toBeGreaterThan(500_000);
    for (const other of ['/developers/assets/scalar.js', '/developers/assets/scalar.js?v=older']) {
      const unnamed = await t.fetch(`${t.server.origin}${other}`);
      expect(unnamed.headers.get('cache-control')).toBe('no-cache');
      expect((await unnamed.arrayBuffer()).byteLength).toBe(bytes.byteLength);
    }
    for (const link of ['/developers/errors', '/developers/start', '/api/v1/openapi.json'])
      expect(html).toContain(link);
  });
});
