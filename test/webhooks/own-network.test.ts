// Webhooks to the operator's own network (issue 28 item 6), through `tessera serve` in its own
// process WITHOUT TESSERA_SECRET_KEY, NODE_EXTRA_CA_CERTS or TESSERA_WEBHOOKS_ALLOW_PRIVATE: the
// key made in the data folder (0600); loopback refused naming TESSERA_WEBHOOKS_ALLOW; with the
// list and a CA file, signed deliveries to an HTTPS receiver of a private CA and to a plain http
// receiver; names on the list and not, at creation and at connection; what start refuses; a start
// with another key refused until `tessera secrets rekey`.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoWorkspace } from '../../core/admin/demo-workspace';
import { systemClock } from '../../core/platform/clock';
import { rekeySecrets } from '../../core/webhooks/rekey-secrets';
import { openServices } from '../../src/services';
import { loopbackMachineName } from '../support/loopback-name';
import { type Receiver, startReceiver, testCa } from '../support/receiver';
import { call, endAll, exited, runTessera, type Spawned, serve, workspaceWithKey } from '../support/spawned';
import { databaseFor } from '../support/test-store';

/** Nothing set: the suite's global switches and its CA are taken away from the child. */
const own = { TESSERA_SECRET_KEY: '', NODE_EXTRA_CA_CERTS: '', TESSERA_WEBHOOKS_ALLOW_PRIVATE: '' };
const allowHint = 'add it (or its network) to TESSERA_WEBHOOKS_ALLOW';

interface PlainReceiver {
  port: number;
  received: { path: string; headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/** A receiver over plain http on loopback, as an n8n on the LAN would be. */
async function startPlainReceiver(): Promise<PlainReceiver> {
  const received: PlainReceiver['received'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function waitUntil<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  // Answers as soon as it is there; the limit only ends a wait for what never comes.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`waited 60 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function verified(secret: string, request: { headers: IncomingHttpHeaders; body: string }) {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
  return new Webhook(secret).verify(request.body, headers) as { type: string };
}

describe('webhooks to your own network', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-own-network-'));
  let receiver: Receiver;
  let plain: PlainReceiver;
  let key: string;
  let machine: string | null;
  /** Endpoints made while 127.0.0.1/32 was allowed, for the later starts. */
  const made: Record<string, { id: string; secret: string }> = {};

  beforeAll(async () => {
    [receiver, plain, machine] = await Promise.all([
      startReceiver(),
      startPlainReceiver(),
      loopbackMachineName(),
    ]);
    ({ key } = await workspaceWithKey(dataDir, 'Own network', own));
  });
  afterAll(async () => {
    await endAll();
    await Promise.all([receiver?.close(), plain?.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function stop(s: Spawned) {
    s.child.kill('SIGTERM');
    await exited(s.child);
  }

  function create(s: Spawned, url: string) {
    return call(s, '/webhooks', { key, method: 'POST', body: { url, eventTypes: ['order.paid'] } });
  }

  /** Sends a test message to an endpoint and answers the first attempt to deliver it. */
  async function firstAttempt(s: Spawned, webhookId: string) {
    const sent = await call(s, `/webhooks/${webhookId}/test`, { key, method: 'POST' });
    expect(sent.status).toBe(202);
    return waitUntil('an attempt', async () => {
      const deliveries = (await call(s, `/webhooks/${webhookId}/deliveries`, { key })).body.data;
      return deliveries.find((d: any) => d.deliveryId === sent.body.deliveryId)?.attempts[0];
    });
  }

  it('makes the key in the data folder (0600) and refuses loopback naming TESSERA_WEBHOOKS_ALLOW', async () => {
    const s = await serve(dataDir, own);
    try {
      expect(statSync(join(dataDir, 'instance.key')).mode & 0o777).toBe(0o600);
      expect(s.banner).not.toMatch(/off until TESSERA_SECRET_KEY/);
      expect(s.banner).toMatch(/Webhook receivers: public addresses only/);

      const open = await create(s, 'https://hooks.example.com/in');
      expect(open.status, JSON.stringify(open.body)).toBe(201);
      expect(open.body.secret).toMatch(/^whsec_/);

      const loopback = await create(s, receiver.url());
      expect(loopback.status).toBe(400);
      expect(loopback.body.code).toBe('webhookPrivate');
      expect(loopback.body.detail).toContain(allowHint);
      const hook = await call(s, '/hooks', {
        key,
        method: 'POST',
        body: { url: receiver.url(), event: 'order.paid', client: 'n8n' },
      });
      expect(hook.body.code).toBe('webhookPrivate');
      expect(hook.body.detail).toContain('TESSERA_WEBHOOKS_ALLOW');
      const overHttp = await create(s, `http://127.0.0.1:${plain.port}/in`);
      expect(overHttp.body.code).toBe('webhookHttps');
      expect(overHttp.body.detail).toContain('TESSERA_WEBHOOKS_ALLOW');
    } finally {
      await stop(s);
    }
  });

  it('delivers signed messages to an allowed HTTPS receiver of a private CA and to an allowed http receiver', async () => {
    const s = await serve(dataDir, {
      ...own,
      TESSERA_WEBHOOKS_ALLOW: '127.0.0.1/32',
      TESSERA_WEBHOOKS_CA: testCa().caCert,
    });
    try {
      expect(s.banner).toMatch(/Webhook receivers: public addresses and 127\.0\.0\.1\/32/);
      expect(s.banner).toContain(`Webhook CA: ${testCa().caCert}`);

      const urls = {
        https: receiver.url('/signed'),
        http: `http://127.0.0.1:${plain.port}/plain`,
        localhost: `http://localhost:${plain.port}/by-name`,
        ...(machine ? { machine: `http://${machine}:${plain.port}/machine` } : {}),
      };
      for (const [name, url] of Object.entries(urls)) {
        const res = await create(s, url);
        expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(201);
        made[name] = { id: res.body.webhook.webhookId, secret: res.body.secret };
      }

      expect((await firstAttempt(s, made.https!.id)).outcome).toBe('succeeded');
      const [signed] = await receiver.waitFor(1, { path: '/signed' });
      expect(verified(made.https!.secret, signed!).type).toBe('webhook.test');

      expect((await firstAttempt(s, made.http!.id)).outcome).toBe('succeeded');
      const overHttp = plain.received.find((r) => r.path === '/plain')!;
      expect(verified(made.http!.secret, overHttp).type).toBe('webhook.test');

      // Plain http never to a public address, listed or not.
      for (const url of ['http://93.184.216.34/in', 'http://hooks.example.com/in']) {
        const res = await create(s, url);
        expect(res.body.code, url).toBe('webhookHttps');
      }
      expect((await create(s, 'https://10.1.2.3/in')).body.code).toBe('webhookPrivate');
    } finally {
      await stop(s);
    }
  });

  it('allows a listed name and refuses other loopback names and addresses, at creation and at connection', async () => {
    const s = await serve(dataDir, { ...own, TESSERA_WEBHOOKS_ALLOW: 'localhost' });
    try {
      // The name on the list: its addresses are allowed for it.
      expect((await firstAttempt(s, made.localhost!.id)).outcome).toBe('succeeded');
      const byName = plain.received.find((r) => r.path === '/by-name')!;
      expect(verified(made.localhost!.secret, byName).type).toBe('webhook.test');

      // 127.0.0.1 is no longer allowed: the endpoint made while it was is refused when connecting.
      const literal = await firstAttempt(s, made.http!.id);
      expect(literal.outcome).toBe('privateAddress');
      expect(literal.error).toContain(allowHint);
      expect((await create(s, receiver.url())).body.code).toBe('webhookPrivate');

      // No trusted CA here (no TESSERA_WEBHOOKS_CA, no NODE_EXTRA_CA_CERTS): the error says what to set.
      const https = await create(s, `https://localhost:${receiver.port}/unknown-ca`);
      expect(https.status, JSON.stringify(https.body)).toBe(201);
      const unknown = await firstAttempt(s, https.body.webhook.webhookId);
      expect(unknown.outcome).toBe('networkError');
      expect(unknown.error).toContain("; trust the receiver's CA with TESSERA_WEBHOOKS_CA");

      // Another name for loopback (the machine's own, where /etc/hosts maps it there).
      if (machine) {
        const refused = await create(s, `https://${machine}:${receiver.port}/in`);
        expect(refused.body.code).toBe('webhookPrivate');
        expect(refused.body.detail).toContain(allowHint);
        const atConnection = await firstAttempt(s, made.machine!.id);
        expect(atConnection.outcome).toBe('privateAddress');
        expect(atConnection.error).toContain(`${machine} resolves to 127.`);
        expect(atConnection.error).toContain(allowHint);
        expect(plain.received.some((r) => r.path === '/machine')).toBe(false);
      }
    } finally {
      await stop(s);
    }
  });

  it('refuses to start on a short key, a bad TESSERA_WEBHOOKS_ALLOW entry or a bad CA file', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'tessera-own-network-refused-'));
    const notPem = join(empty, 'not-a-ca.pem');
    writeFileSync(notPem, 'hello\n');
    const start = (env: Record<string, string>) =>
      runTessera(['serve', '--data', empty, '--port', '0', '--host', '127.0.0.1'], { ...own, ...env });
    try {
      const cases: [Record<string, string>, string[]][] = [
        [{ TESSERA_SECRET_KEY: 'abc' }, ['TESSERA_SECRET_KEY is 3 bytes long', 'openssl rand -base64 32']],
        [{ TESSERA_WEBHOOKS_ALLOW: '127.0.0.1/32,10.0.0.0/33' }, ['TESSERA_WEBHOOKS_ALLOW: "10.0.0.0/33"']],
        [{ TESSERA_WEBHOOKS_ALLOW: 'n8n lan' }, ['"n8n lan" is not a network']],
        [{ TESSERA_WEBHOOKS_CA: join(empty, 'missing.pem') }, ['TESSERA_WEBHOOKS_CA:', 'cannot be read']],
        [{ TESSERA_WEBHOOKS_CA: notPem }, [`TESSERA_WEBHOOKS_CA: ${notPem} holds no PEM certificate`]],
      ];
      const runs = await Promise.all(cases.map(([env]) => start(env)));
      runs.forEach((run, i) => {
        const [env, says] = cases[i]!;
        expect(run.code, JSON.stringify(env)).toBe(2);
        for (const text of says) expect(JSON.parse(run.stderr).detail, JSON.stringify(env)).toContain(text);
      });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('refuses a start with another key once secrets exist, until secrets rekey re-encrypts them', async () => {
    const newKey = randomBytes(32).toString('base64');
    const withNewKey = { ...own, TESSERA_SECRET_KEY: newKey };
    const refused = await runTessera(
      ['serve', '--data', dataDir, '--port', '0', '--host', '127.0.0.1'],
      withNewKey,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('encrypted under another key than');
    expect(refused.stderr).toContain('Put the old key back');
    expect(refused.stderr).toContain('tessera secrets rekey --from-key-file');

    const wrongFile = join(dataDir, 'wrong.key');
    writeFileSync(wrongFile, randomBytes(32).toString('base64'));
    const wrong = await runTessera(
      ['secrets', 'rekey', '--from-key-file', wrongFile, '--data', dataDir],
      withNewKey,
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Nothing was changed');

    const rekey = await runTessera(
      ['secrets', 'rekey', '--from-key-file', join(dataDir, 'instance.key'), '--data', dataDir],
      withNewKey,
    );
    expect(rekey.code, rekey.stderr).toBe(0);
    expect(JSON.parse(rekey.stdout).reencrypted).toBeGreaterThan(0);

    // The secret shown before the change still signs.
    const s = await serve(dataDir, {
      ...withNewKey,
      TESSERA_WEBHOOKS_ALLOW: '127.0.0.1/32',
      TESSERA_WEBHOOKS_CA: testCa().caCert,
    });
    try {
      expect(s.banner).toMatch(/Webhooks: +signing secrets encrypted with TESSERA_SECRET_KEY/);
      expect((await firstAttempt(s, made.https!.id)).outcome).toBe('succeeded');
      const [, again] = await receiver.waitFor(2, { path: '/signed' });
      expect(verified(made.https!.secret, again!).type).toBe('webhook.test');
    } finally {
      await stop(s);
    }
  });
});

describe('a deployment that set TESSERA_SECRET_KEY before the fingerprint was kept', () => {
  it('records its key on the first start after the upgrade, and refuses another key then too', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tessera-key-upgrade-'));
    const database = await databaseFor(dataDir);
    const open = (secretKey: string) => openServices({ dataDir, database, ratePerMinute: 600, secretKey });
    const before = 'the-key-it-always-had-0123456789abcdef';
    try {
      const first = await open(before);
      await ensureDemoWorkspace(first.services.db, systemClock, first.services.secrets.webhookSecretKey);
      // As a database of the earlier version is: secrets, and no fingerprint.
      await first.services.db.deleteFrom('deployment_keys').execute();
      await first.close();

      await expect(open('another-key-entirely-0123456789abcdef')).rejects.toThrow(
        /encrypted under another key than this start's \(TESSERA_SECRET_KEY\)/,
      );
      const again = await open(before);
      const rows = await again.services.db.selectFrom('deployment_keys').selectAll().execute();
      expect(rows.map((r) => r.purpose)).toEqual(['webhookSecrets']);
      await again.close();

      // The key lost: the secrets no key opens are forgotten, and the new key starts.
      const lost = 'a-new-key-for-a-lost-one-0123456789abcdef';
      const mending = await openServices({
        dataDir,
        database,
        ratePerMinute: 600,
        secretKey: lost,
        keyCheck: false,
      });
      const { db, secrets } = mending.services;
      const result = await rekeySecrets(db, [], secrets.webhookSecretKey, new Date(), {
        discardUnreadable: true,
      });
      expect(result.discarded).toBeGreaterThan(0);
      expect(
        await db.selectFrom('webhooks').where('secret_enc', 'is not', null).select('id').execute(),
      ).toEqual([]);
      await mending.close();
      await (await open(lost)).close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
