import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t.close());

describe('smoke', () => {
  it('answers /me for the demonstration key over HTTPS', async () => {
    const res = await t.api('/me', { key: t.server.demoKey });
    expect(res.status).toBe(200);
    expect(res.body.workspaceName).toBe('Tessera demonstration');
  });
  it('lists tools through a real MCP client', async () => {
    const client = await t.mcp(t.server.demoKey);
    const tools = await client.listTools();
    expect(tools.tools.map((x) => x.name)).toContain('get_me');
    const me = await client.callTool({ name: 'get_me', arguments: {} });
    expect((me.structuredContent as any).keyPrefix).toBe('abk_demo0000read');
    await client.close();
  });
});
