// The MCP endpoint at /mcp: the origin check, key verification and the JSON body, then the
// answer (mcp/answer.ts), loaded with the SDK on the first call.
import type { Context, Middleware } from 'koa';
import type { Log } from '../core/platform/log';
import { problem } from '../core/platform/problems';
import type { Services } from '../core/platform/services';
import { toolsetChoice } from './toolset-choice';

let answering: Promise<typeof import('./answer')> | undefined;

/** The answering half, with the SDK, loaded on the first call and kept. */
function loadAnswer(): Promise<typeof import('./answer')> {
  answering ??= import('./answer');
  return answering;
}

function describeCall(body: unknown): string {
  const message = body as
    | { method?: string; params?: { name?: string; arguments?: { name?: unknown } } }
    | undefined;
  if (message?.method === 'tools/call') {
    const name = message.params?.name ?? '?';
    // call_tool's own target, so the log says what ran.
    const inner = message.params?.arguments?.name;
    return `MCP tools/call ${name}${name === 'call_tool' && typeof inner === 'string' ? ` ${inner}` : ''}`;
  }
  return `MCP ${message?.method ?? 'batch'}`;
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
    // The toolsets the URL lists (/mcp?toolsets=sponsors,crew); a wrong name is refused here.
    const toolsets = toolsetChoice(ctx.query.toolsets);
    const body = (ctx.request as unknown as { body?: unknown }).body;
    ctx.state.operation = describeCall(body);
    const { answerMcp } = await loadAnswer();
    ctx.respond = false;
    await answerMcp(ctx, services, logger, body, toolsets);
  };
  const name: Middleware = async (ctx, next) => {
    ctx.state.operation = `MCP ${ctx.method}`;
    await next();
  };
  return [originCheck, name, authenticate, jsonBody, handle];
}
