// The deployment examples in deploy/ work as written (issue 28, docs/operations.md): the systemd
// unit passes `systemd-analyze verify`, and the nginx site runs in front of a real
// `tessera serve --trust-proxy`: HTTPS at nginx, the public URL in answers, plain HTTP sent to
// HTTPS, MCP through it, and Tessera itself refusing what did not come through the proxy.
// Needs systemd-analyze (Debian: systemd) and nginx (Debian: nginx-light); .ci/run installs them.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEnvironment, startFlags } from '../../bench/serve-args';
import { demoKey } from '../../core/admin/demo-workspace';
import { testCaFiles } from '../support/test-ca';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const deploy = (file: string) => join(root, 'deploy', file);

/** The path of a system command, or a failure saying which Debian package brings it. */
async function need(command: string, debianPackage: string): Promise<string> {
  const found = await run('sh', ['-c', `command -v ${command} || ls /usr/sbin/${command} 2>/dev/null`]).then(
    (r) => r.stdout.trim().split('\n')[0],
    () => '',
  );
  if (!found)
    throw new Error(
      `${command} is missing: install it (Debian: apt-get install ${debianPackage}) to run this test.`,
    );
  return found;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the systemd unit (deploy/tessera.service)', () => {
  it('passes systemd-analyze verify, its ExecStart pointed at a stand-in executable', async () => {
    const analyze = await need('systemd-analyze', 'systemd');
    const dir = mkdtempSync(join(tmpdir(), 'tessera-unit-'));
    const standIn = join(dir, 'tessera');
    writeFileSync(standIn, '#!/bin/sh\n', { mode: 0o755 });
    const unit = readFileSync(deploy('tessera.service'), 'utf8');
    expect(unit).toContain('ExecStart=/opt/tessera/tessera serve');
    writeFileSync(
      join(dir, 'tessera.service'),
      unit.replace('ExecStart=/opt/tessera/tessera', `ExecStart=${standIn}`),
    );
    // Warnings (an unknown key, a bad value) go to stderr with status 0: both must be clean.
    const result = await run(analyze, ['verify', join(dir, 'tessera.service')]);
    expect(result.stderr).toBe('');
  });

  it('starts the service with the memory settings npm start gives it', () => {
    const unit = readFileSync(deploy('tessera.service'), 'utf8');
    expect(unit).toContain(`Environment="NODE_OPTIONS=${startFlags().join(' ')}"`);
    const environment = Object.entries(startEnvironment());
    expect(environment.length).toBeGreaterThan(0);
    for (const [name, value] of environment) expect(unit).toContain(`Environment=${name}=${value}`);
  });
});

describe('the nginx site (deploy/nginx-tessera.conf) in front of tessera serve --trust-proxy', () => {
  let tessera: ChildProcess;
  let nginx: ChildProcess;
  let httpsPort: number;
  let httpPort: number;
  let tesseraPort: number;
  let agent: Agent;
  const logs = { tessera: '', nginx: '' };

  beforeAll(async () => {
    const nginxBin = await need('nginx', 'nginx-light');
    const dir = mkdtempSync(join(tmpdir(), 'tessera-proxy-'));
    [httpsPort, httpPort, tesseraPort] = [await freePort(), await freePort(), await freePort()];
    const publicUrl = `https://localhost:${httpsPort}`;
    tessera = spawn(
      process.execPath,
      // As the unit starts it: behind the proxy, on the loopback interface.
      [
        join(root, 'bin', 'tessera.mjs'),
        'serve',
        '--data',
        join(dir, 'data'),
        '--host',
        '127.0.0.1',
        '--trust-proxy',
      ],
      {
        env: {
          ...process.env,
          TESSERA_LOG_LEVEL: 'silent',
          PORT: String(tesseraPort),
          TESSERA_PUBLIC_URL: publicUrl,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const ca = testCaFiles(process.env.TESSERA_TEST_CA_DIR!);
    const site = readFileSync(deploy('nginx-tessera.conf'), 'utf8')
      .replace('server 127.0.0.1:8443;', `server 127.0.0.1:${tesseraPort};`)
      .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`)
      .replaceAll('events.example.org;', 'localhost;')
      .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${ca.receiverCert};`)
      .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${ca.receiverKey};`);
    expect(site.replace(/^#.*$/gm, '')).not.toContain('example.org');
    writeFileSync(join(dir, 'site.conf'), site);
    copyFileSync(ca.caCert, join(dir, 'ca.pem'));
    const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
    writeFileSync(
      join(dir, 'nginx.conf'),
      [
        `pid ${join(dir, 'nginx.pid')};`,
        `error_log ${join(dir, 'error.log')} warn;`,
        'events {}',
        `http { access_log off; ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join(' ')}`,
        `include ${join(dir, 'site.conf')}; }`,
      ].join('\n'),
    );
    nginx = spawn(nginxBin, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    nginx.stderr!.on('data', (chunk) => {
      logs.nginx += String(chunk);
    });
    agent = new Agent({ connect: { ca: readFileSync(ca.caCert, 'utf8') } });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`tessera did not start: ${logs.tessera}`)), 30_000);
      tessera.stdout!.on('data', (chunk) => {
        logs.tessera += String(chunk);
        if (logs.tessera.includes('Tessera is running')) {
          clearTimeout(timer);
          resolve();
        }
      });
      tessera.stderr!.on('data', (chunk) => {
        logs.tessera += String(chunk);
      });
    });
    // nginx is up once its HTTPS port answers.
    for (let i = 0; i < 100; i += 1) {
      const up = await fetch(`${publicUrl}/healthz`, { dispatcher: agent }).then(
        () => true,
        () => false,
      );
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  afterAll(async () => {
    tessera?.kill('SIGTERM');
    nginx?.kill('SIGQUIT');
    await agent?.close();
  });

  it('answers the API over HTTPS at nginx, with the public URL in its answers', async () => {
    const me = await fetch(`https://localhost:${httpsPort}/api/v1/me`, {
      headers: { authorization: `Bearer ${demoKey.key}` },
      dispatcher: agent,
    });
    expect(me.status, logs.nginx).toBe(200);
    const resource = await fetch(`https://localhost:${httpsPort}/.well-known/oauth-protected-resource/mcp`, {
      dispatcher: agent,
    });
    expect(resource.status).toBe(200);
    expect(((await resource.json()) as { resource: string }).resource).toBe(
      `https://localhost:${httpsPort}/mcp`,
    );
  });

  it('sends plain HTTP at nginx to HTTPS', async () => {
    const res = await fetch(`http://localhost:${httpPort}/api/v1/me`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`https://localhost/api/v1/me`);
  });

  it('passes MCP through: initialize answers with the server info', async () => {
    const res = await fetch(`https://localhost:${httpsPort}/mcp`, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        authorization: `Bearer ${demoKey.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'proxy-test', version: '1' },
        },
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('"name":"tessera"');
  });

  it('leaves Tessera refusing a request that did not come through the proxy over HTTPS', async () => {
    const res = await fetch(`http://127.0.0.1:${tesseraPort}/api/v1/me`, {
      headers: { authorization: `Bearer ${demoKey.key}` },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await res.text()).not.toContain('workspaceId');
  });
});
