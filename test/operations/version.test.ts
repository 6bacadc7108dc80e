// One version across the package, the CLI, the OpenAPI document and the MCP server (issue 28):
// `tessera --version` prints package.json's, and the other two answer the same over HTTPS.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey } from '../../core/admin/demo-workspace';
import { startTestServer, type TestServer } from '../support/server';
import { runTessera } from '../support/spawned';

const packageVersion: string = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'),
).version;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t.close());

describe('the version', () => {
  it('is a release version in package.json', () => {
    expect(packageVersion).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('is printed by tessera --version and -V, alone on stdout', async () => {
    for (const flag of ['--version', '-V']) {
      const run = await runTessera([flag]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`${packageVersion}\n`);
    }
  });

  it("is the OpenAPI document's info.version", async () => {
    const res = await t.api('/openapi.json');
    expect(res.body.info.version).toBe(packageVersion);
  });

  it("is the MCP server's version in its initialize answer", async () => {
    const client = await t.mcp(demoKey.key);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'tessera', version: packageVersion });
    } finally {
      await client.close();
    }
  });
});
