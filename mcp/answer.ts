// Answers one MCP request: Streamable HTTP through the official SDK's low-level Server, in
// stateless JSON mode (each POST stands alone, like a REST call). Tools come from the tool table
// and run through core's invoke; resources and prompts help an assistant start from the facts.
// Loaded on the first MCP call (mcp/endpoint.ts): a server nobody's assistant talks to never
// holds the SDK and the tool list in memory.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Context } from 'koa';
import type { Actor } from '../core/platform/actor';
import type { Log } from '../core/platform/log';
import type { Services } from '../core/platform/services';
import { tesseraVersion } from '../core/platform/version';
import type { McpRequest } from './call-context';
import { answerToolCall } from './discovery-calls';
import { getPrompt, promptList } from './prompts';
import { listResources, readResource, resourceTemplates } from './resources';
import { toolListFor } from './tool-list';
import { defaultToolsets, type ToolsetChoice } from './toolset-choice';

export { malformedMessage } from './rpc-message';

/** Said once to the assistant at initialisation, so each tool's schema can stay short. */
const instructions = [
  "Tessera manages one workspace's events: tickets, orders, attendees, doors and check-in, programme, passes, sponsors, crew, surveys, finance, communities and webhooks.",
  'Lists answer {data, nextCursor, hasMore}, oldest change first unless the tool says otherwise; pass nextCursor back as cursor for the next page until it is null (limit 1 to 500, 100 by default); updatedSince (ISO 8601) gives only what changed since, for syncing.',
  'Writes: idempotencyKey (any unique string, e.g. a UUID) makes a retry safe within 24 hours; ifMatch takes _meta.etag of the matching get tool (or of the write that answered the resource), so a change made by someone else since is refused with preconditionFailed instead of overwritten.',
  "A refusal is a tool error whose text is the REST API's problem object: branch on code; detail says what to fix; errors lists each bad field.",
  'The tools listed are those this key\'s scopes allow (get_me shows its scopes); another tool answers missingScope naming the scope it needs. Each description ends with the scope it needs; "Tessera extension." marks a tool beyond the published API. Names and emails need people:read.',
  `Tools come in toolsets, one per area: this connection lists ${defaultToolsets.join(', ')} and those its address adds (/mcp?toolsets=programme,sponsors, or toolsets=all). To reach the others (programme, sponsors, crew, finance, webhooks, …) without reconnecting: list_toolsets names them and their tools, describe_tools gives a tool's definition, and call_tool runs it by name (calling it directly by its name works too).`,
  'Read tessera://events/{eventId}/briefing for an overview of an event before working on it.',
].join(' ');

function buildServer(req: McpRequest, log: Log): Server {
  // No listChanged: each request stands alone and authenticates, so tools/list is the caller's
  // own, and a key's scopes never change (a wider grant is a new key or a new sign-in).
  const server = new Server(
    { name: 'tessera', title: 'Tessera', version: tesseraVersion },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: toolListFor(req.actor, req.toolsets),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => answerToolCall(req, log, request.params));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates }));
  server.setRequestHandler(ListResourcesRequestSchema, (request) =>
    listResources(req, request.params?.cursor),
  );
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(req, request.params.uri));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: promptList }));
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    getPrompt(req, request.params.name, request.params.arguments),
  );
  return server;
}

/** Answers the request on the Koa context's own response (ctx.respond is already false). */
export async function answerMcp(
  ctx: Context,
  services: Services,
  log: Log,
  body: unknown,
  toolsets: ToolsetChoice,
): Promise<void> {
  const actor = ctx.state.actor as Actor;
  const server = buildServer({ services, actor, koa: ctx, toolsets }, log);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  ctx.res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(ctx.req, ctx.res, body);
}
