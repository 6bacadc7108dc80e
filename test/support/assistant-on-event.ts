// What the tests of an area run by an assistant share: a server, a workspace, a key with every scope,
// the SDK's MCP client on the area's toolsets, and one event made through its create_event tool; and
// a tool call on that event that must be answered (ok) or refused as a tool error (refused).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import { eventBody } from './fixtures';
import { callTool } from './sales';
import { startTestServer, type TestServer } from './server';

export interface AssistantOnEvent {
  t: TestServer;
  workspaceId: string;
  client: Client;
  eventId: string;
}

export async function startAssistantOnEvent(
  workspaceName: string,
  toolsets: string,
): Promise<AssistantOnEvent> {
  const t = await startTestServer();
  let client: Client | undefined;
  try {
    const { workspaceId } = await t.workspace(workspaceName);
    const { key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
    client = await t.mcp(key, {}, `?toolsets=${toolsets}`);
    const event = await callTool(client, 'create_event', eventBody());
    expect(event.isError, JSON.stringify(event.data)).toBe(false);
    return { t, workspaceId, client, eventId: event.data.eventId };
  } catch (error) {
    // The test's afterAll never learns of what started here: ended before the failure is answered.
    await closeAssistantOnEvent({ t, client });
    throw error;
  }
}

export async function closeAssistantOnEvent(setup: {
  t: TestServer | undefined;
  client: Client | undefined;
}): Promise<void> {
  await setup.client?.close();
  await setup.t?.close();
}

/** Calls `name` on the event; answers its data, once it was (or, `refused`, was not) a tool error. */
export async function toolOnEvent(
  client: Client,
  eventId: string,
  name: string,
  args: Record<string, unknown>,
  refused = false,
): Promise<any> {
  const res = await callTool(client, name, { eventId, ...args });
  expect(res.isError, refused ? name : `${name}: ${JSON.stringify(res.data)}`).toBe(refused);
  return res.data;
}
