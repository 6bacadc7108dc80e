// The MCP endpoint at /mcp: Streamable HTTP through the official SDK's low-level Server, in
// stateless JSON mode (each POST stands alone, like a REST call). Tools come from the tool table
// and run through core's invoke, so scopes, validation and problems match REST exactly.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Context, Middleware } from 'koa';
import type { Actor } from '../core/platform/actor';
import type { Ctx } from '../core/platform/context';
import { etagOf } from '../core/platform/etag';
import { invoke } from '../core/platform/invoke';
import { jsonSchemaOf } from '../core/platform/json-schema';
import type { Log } from '../core/platform/log';
import { isProblem, problem, problemBody } from '../core/platform/problems';
import type { Services } from '../core/platform/services';
import type { Tool } from './tool-table';
import { tools } from './tools';

/** Tools of idempotent operations take the key as an argument, as REST takes the header. */
const idempotencyKeyProperty = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description:
    'Optional. 1 to 255 visible ASCII characters (a UUID is suitable). A retry with the same key within 24 hours gets the first answer instead of acting twice; the same key with other arguments is refused with idempotencyKeyReused.',
};

/** Tools of conditional writes take the entity tag read, as REST takes If-Match. */
const ifMatchProperty = {
  type: 'string',
  description:
    "Optional. The etag from the result's _meta of the matching get tool: the change is refused with preconditionFailed when the resource changed since it was read.",
};

function inputSchemaOf(t: Tool): { type: 'object'; [k: string]: unknown } {
  const schema = jsonSchemaOf(t.operation.input) as { type: 'object'; properties?: Record<string, unknown> };
  const extra = {
    ...(t.operation.idempotent ? { idempotencyKey: idempotencyKeyProperty } : {}),
    ...(t.operation.ifMatch ? { ifMatch: ifMatchProperty } : {}),
  };
  return { ...schema, properties: { ...(schema.properties ?? {}), ...extra } };
}

const toolList = tools.map((t) => ({
  name: t.name,
  title: t.operation.title,
  description: t.operation.description,
  inputSchema: inputSchemaOf(t),
  outputSchema: jsonSchemaOf(t.operation.output) as { type: 'object'; [k: string]: unknown },
  annotations: t.annotations,
}));
const toolsByName = new Map<string, Tool>(tools.map((t) => [t.name, t]));

function describeCall(body: unknown): string {
  const message = body as { method?: string; params?: { name?: string } } | undefined;
  if (message?.method === 'tools/call') return `MCP tools/call ${message.params?.name ?? '?'}`;
  return `MCP ${message?.method ?? 'batch'}`;
}

function buildServer(services: Services, log: Log, actor: Actor, ctx: Context): Server {
  const server = new Server(
    { name: 'tessera', version: '1.0.0' },
    {
      capabilities: { tools: {} },
      instructions:
        "Tessera manages one workspace's events. Every tool answers JSON; a refusal is a tool error whose JSON is the same problem (code, detail, …) the REST API gives. Branch on code.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolList }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const found = toolsByName.get(request.params.name);
    try {
      if (!found) throw problem('notFound', `There is no tool named ${request.params.name}.`);
      const { operation } = found;
      const { idempotencyKey, ifMatch, ...args } = request.params.arguments ?? {};
      const call: Ctx = {
        db: services.db,
        clock: services.clock,
        actor,
        services,
        request: {
          origin: ctx.state.origin,
          ifMatch: operation.ifMatch && ifMatch !== undefined ? String(ifMatch) : undefined,
          userAgent: ctx.get('user-agent') || undefined,
        },
      };
      const result = await invoke(operation, call, args, {
        bodyFields: new Set(Object.keys(args)),
        idempotency:
          operation.idempotent && idempotencyKey !== undefined
            ? { key: String(idempotencyKey), method: 'MCP', path: found.name }
            : undefined,
      });
      return {
        content: [{ type: 'text', text: JSON.stringify(result.data) }],
        structuredContent: result.data as Record<string, unknown>,
        ...(operation.etag ? { _meta: { etag: etagOf(result.data) } } : {}),
      };
    } catch (error) {
      const p = isProblem(error) ? error : problem('serverError');
      if (!isProblem(error))
        log.error({ traceId: ctx.state.traceId, tool: request.params.name, err: error }, 'tool call failed');
      ctx.state.outcome = p.code;
      const body = problemBody(p, {
        root: ctx.state.origin,
        instance: `/mcp#${request.params.name}`,
        traceId: ctx.state.traceId,
      });
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
    }
  });
  return server;
}

export interface McpOptions {
  services: Services;
  logger: Log;
  authenticate: Middleware;
  jsonBody: Middleware;
  /** The origins a browser page of this service can have. */
  allowedOrigins(ctx: Context): Set<string>;
}

/** Koa middleware answering /mcp. */
export function mcpEndpoint({
  services,
  logger,
  authenticate,
  jsonBody,
  allowedOrigins,
}: McpOptions): Middleware[] {
  /** Browser requests (with an Origin header) are accepted only from this service's own origin. */
  const originCheck: Middleware = async (ctx, next) => {
    const origin = ctx.get('origin');
    if (origin && !allowedOrigins(ctx).has(origin)) {
      throw problem(
        'invalidOrigin',
        `Browser requests from ${origin} are not accepted; only ${ctx.state.origin} may call the MCP server.`,
      );
    }
    await next();
  };
  const handle: Middleware = async (ctx) => {
    if (ctx.method !== 'POST') {
      // Stateless server: no standalone event stream and no sessions to end.
      ctx.set('Allow', 'POST');
      throw problem('methodNotAllowed', 'The MCP endpoint answers POST only (stateless Streamable HTTP).');
    }
    const body = (ctx.request as unknown as { body?: unknown }).body;
    ctx.state.operation = describeCall(body);
    const actor = ctx.state.actor as Actor;
    const server = buildServer(services, logger, actor, ctx);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    ctx.respond = false;
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(ctx.req, ctx.res, body);
  };
  const name: Middleware = async (ctx, next) => {
    ctx.state.operation = `MCP ${ctx.method}`;
    await next();
  };
  return [originCheck, name, authenticate, jsonBody, handle];
}
