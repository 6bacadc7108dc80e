// Receiver addresses whose names can never resolve, or do not resolve now (issue 50 item 7), and a
// test message that says why its delivery failed, through the real server over HTTPS and MCP:
// a name under .invalid, .test or .example (or that bare name; any case, with or without a trailing
// dot) is refused at creation and on change, naming the field; a name that does not resolve now is
// taken with a warning; the test message's answer names the failure (DNS, refused connection, TLS,
// time-out, a status other than 2xx). Every receiver here is on loopback.
import { createServer as createPlainServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/fixtures';
import { type Receiver, startReceiver } from '../support/receiver';
import { callTool } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let strict: TestServer;
let key: string;
let strictKey: string;
let receiver: Receiver;

/** How long an attempt may take on `t`: short, so the time-out is seen quickly. */
const timeoutMs = 1_500;

beforeAll(async () => {
  [t, strict, receiver] = await Promise.all([
    startTestServer({
      env: { TESSERA_SECRET_KEY: 'receiver-names-master-key-0123456789abcdef' },
      delivery: { allowPrivate: true, timeoutMs },
      dispatcher: false,
    }),
    startTestServer({
      env: { TESSERA_SECRET_KEY: 'receiver-names-strict-key-0123456789abcdef' },
      delivery: { allowPrivate: false },
      dispatcher: false,
    }),
    startReceiver(),
  ]);
  const [one, two] = await Promise.all([t.workspace('Receiver names'), strict.workspace('Strict receivers')]);
  ({ key } = await t.key({ workspaceId: one.workspaceId, preset: 'everything', expires: 'never' }));
  ({ key: strictKey } = await strict.key({
    workspaceId: two.workspaceId,
    preset: 'everything',
    expires: 'never',
  }));
});
afterAll(async () => {
  await Promise.all([t?.close(), strict?.close(), receiver?.close()]);
});

let n = 0;
/** A name that does not resolve (example.com has no such names) yet is not reserved. */
const unresolvedUrl = () => `https://nowhere-${++n}-${Date.now()}.example.com/in`;

const reservedForms = [
  'https://foo.invalid/',
  'https://foo.invalid./',
  'https://FOO.Invalid/in',
  'https://hooks.test/in',
  'https://hooks.test./in',
  'https://a.b.example/in',
  'https://invalid/in',
  'https://test./in',
  'https://EXAMPLE/in',
];

function refusedNamingUrl(res: { status: number; headers: Headers; body: any }) {
  const problem = expectProblem(res, 400, 'webhookUrl');
  expect(problem.errors).toEqual([
    { field: 'url', message: expect.stringMatching(/reserved never to resolve/) },
  ]);
  expect(problem.detail).toMatch(/reserved never to resolve/);
}

const webhook = (url: string, server = t, k = key) =>
  server.api('/webhooks', { key: k, method: 'POST', body: { url, eventTypes: ['order.paid'] } });

describe('names reserved never to resolve', () => {
  it.each(reservedForms)('refuses %s for a webhook endpoint with 400 webhookUrl naming url', async (url) => {
    refusedNamingUrl(await webhook(url));
  });

  it('refuses them on a change of the endpoint, leaving its address as it was', async () => {
    const made = await webhook(receiver.url());
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.webhook.webhookId;
    for (const url of reservedForms) {
      const res = await t.api(`/webhooks/${id}`, { key, method: 'PATCH', body: { url } });
      refusedNamingUrl(res);
    }
    expect((await t.api(`/webhooks/${id}`, { key })).body.host).toBe(`127.0.0.1:${receiver.port}`);
  });

  it('refuses them for automation subscriptions, by either path', async () => {
    for (const url of reservedForms) {
      refusedNamingUrl(await t.api('/hooks', { key, method: 'POST', body: { url, event: 'order.paid' } }));
      refusedNamingUrl(await t.api('/hooks/order.paid', { key, method: 'POST', body: { url } }));
    }
  });

  it('refuses them before any other check of the address, whatever allows private receivers', async () => {
    // allowPrivate takes every address; a reserved name has none.
    refusedNamingUrl(await webhook('https://foo.invalid./in'));
    refusedNamingUrl(await webhook('https://foo.invalid/in', strict, strictKey));
  });

  it('refuses localhost names as a private address, naming url too', async () => {
    for (const url of ['https://localhost/in', 'https://app.LOCALHOST./in', 'https://localhost./in']) {
      const problem = expectProblem(await webhook(url, strict, strictKey), 400, 'webhookPrivate');
      expect(problem.errors).toEqual([{ field: 'url', message: problem.detail }]);
    }
  });

  it('refuses them through MCP as a tool error naming url', async () => {
    const client = await t.mcp(key);
    try {
      const made = await callTool(client, 'create_webhook', {
        url: 'https://foo.invalid./',
        eventTypes: ['order.paid'],
      });
      expect(made.isError).toBe(true);
      expect(made.data).toMatchObject({ code: 'webhookUrl', errors: [{ field: 'url' }] });
      const hook = await callTool(client, 'create_hook', {
        url: 'https://hooks.test/in',
        event: 'order.paid',
      });
      expect(hook.isError).toBe(true);
      expect(hook.data).toMatchObject({ code: 'webhookUrl', errors: [{ field: 'url' }] });
    } finally {
      await client.close();
    }
  });
});

describe('names that do not resolve now', () => {
  const warning = {
    code: 'receiverUnresolved',
    field: 'url',
    detail: expect.stringMatching(/does not resolve now/),
  };

  it('takes an endpoint at a name that does not resolve, with a warning naming url', async () => {
    const url = unresolvedUrl();
    const res = await webhook(url, strict, strictKey);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.warnings).toEqual([warning]);
    // The address is not repeated: a subscription's is never shown again once given.
    expect(JSON.stringify(res.body.warnings)).not.toContain(new URL(url).hostname);
  });

  it('answers no warnings for a name that resolves', async () => {
    const res = await webhook(`https://localhost:${receiver.port}/in`);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).not.toHaveProperty('warnings');
  });

  it('warns on a change to such a name, its ETag the one a read gives', async () => {
    const made = await webhook(receiver.url());
    const id = made.body.webhook.webhookId;
    const changed = await t.api(`/webhooks/${id}`, { key, method: 'PATCH', body: { url: unresolvedUrl() } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.warnings).toEqual([warning]);
    const read = await t.api(`/webhooks/${id}`, { key });
    expect(read.body).not.toHaveProperty('warnings');
    expect(changed.headers.get('etag')).toBe(read.headers.get('etag'));
  });

  it('takes a subscription at such a name with the warning, by REST and MCP', async () => {
    const res = await strict.api('/hooks', {
      key: strictKey,
      method: 'POST',
      body: { url: unresolvedUrl(), event: 'order.paid' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.warnings).toEqual([warning]);
    const client = await strict.mcp(strictKey);
    try {
      const made = await callTool(client, 'create_webhook', {
        url: unresolvedUrl(),
        eventTypes: ['order.paid'],
      });
      expect(made.isError).toBe(false);
      expect(made.data.warnings).toEqual([warning]);
    } finally {
      await client.close();
    }
  });
});

describe('the test message says why its delivery failed', () => {
  async function testMessage(url: string, server = t, k = key) {
    const made = await webhook(url, server, k);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const res = await server.api(`/webhooks/${made.body.webhook.webhookId}/test`, { key: k, method: 'POST' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return { webhookId: made.body.webhook.webhookId as string, answer: res.body };
  }

  it('answers succeeded when the receiver takes it, and it arrives signed', async () => {
    receiver.reply(() => ({ status: 204 }));
    const before = receiver.received.length;
    const { answer } = await testMessage(receiver.url('/ok'));
    expect(answer.attempt).toMatchObject({
      outcome: 'succeeded',
      reason: null,
      statusCode: 204,
      error: null,
    });
    expect(receiver.received.length).toBe(before + 1);
    expect(receiver.received.at(-1)!.headers['webhook-signature']).toMatch(/^v1,/);
  });

  it('names a DNS failure', async () => {
    const { webhookId, answer } = await testMessage(unresolvedUrl(), strict, strictKey);
    expect(answer.attempt).toMatchObject({ outcome: 'networkError', reason: 'dnsFailure', statusCode: null });
    expect(answer.attempt.error).toMatch(/^DNS lookup failed: /);
    // The deliveries list shows the same attempt, to be tried again.
    const list = await strict.api(`/webhooks/${webhookId}/deliveries`, { key: strictKey });
    expect(list.body.data[0]).toMatchObject({
      state: 'pending',
      attempts: [{ attempt: 1, outcome: 'networkError', error: answer.attempt.error }],
    });
  });

  it('names a refused connection', async () => {
    const closed = createPlainServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { answer } = await testMessage(`https://127.0.0.1:${port}/in`);
    expect(answer.attempt).toMatchObject({ outcome: 'networkError', reason: 'connectionRefused' });
    expect(answer.attempt.error).toMatch(/^connection refused: /);
  });

  it('names a TLS failure (a receiver that does not speak TLS)', async () => {
    const plain: Server = createPlainServer((_req, res) => res.end('plain'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const { answer } = await testMessage(`https://127.0.0.1:${(plain.address() as AddressInfo).port}/in`);
      expect(answer.attempt).toMatchObject({ outcome: 'networkError', reason: 'tlsError' });
      expect(answer.attempt.error).toMatch(/^TLS failed: /);
    } finally {
      plain.closeAllConnections();
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  it('names a time-out', async () => {
    receiver.reply(() => ({ status: 200, delayMs: timeoutMs + 1_000 }));
    const { answer } = await testMessage(receiver.url('/slow'));
    receiver.reply(() => ({ status: 200 }));
    expect(answer.attempt).toMatchObject({ outcome: 'timeout', reason: 'timeout', statusCode: null });
    expect(answer.attempt.error).toMatch(/within 1500 ms/);
  });

  it('names a status other than 2xx, with the status', async () => {
    receiver.reply(() => ({ status: 503 }));
    const { answer } = await testMessage(receiver.url('/busy'));
    receiver.reply(() => ({ status: 200 }));
    expect(answer.attempt).toMatchObject({ outcome: 'httpError', reason: 'httpStatus', statusCode: 503 });
  });

  it('answers the same through MCP', async () => {
    const client = await t.mcp(key);
    try {
      receiver.reply(() => ({ status: 500 }));
      const made = await callTool(client, 'create_webhook', {
        url: receiver.url('/mcp'),
        eventTypes: ['order.paid'],
      });
      const sent = await callTool(client, 'send_test_message', { webhookId: made.data.webhook.webhookId });
      expect(sent.isError).toBe(false);
      expect(sent.data.attempt).toMatchObject({
        outcome: 'httpError',
        reason: 'httpStatus',
        statusCode: 500,
      });
    } finally {
      receiver.reply(() => ({ status: 200 }));
      await client.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it('documents warnings and the test attempt as marked extensions', async () => {
    const doc = (await t.api('/openapi.json')).body;
    const { schemas } = doc.components;
    for (const name of ['CreatedWebhook', 'ChangedWebhook', 'CreatedHook'])
      expect(schemas[name].properties.warnings['x-tessera-extension'], name).toBe(true);
    expect(schemas.TestMessage.properties.attempt['x-tessera-extension']).toBe(true);
    expect(JSON.stringify(schemas.TestMessage.properties.attempt)).toContain('dnsFailure');
  });
});
