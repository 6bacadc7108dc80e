// The MCP endpoint at /mcp: the origin check, key verification and the JSON body, then the
// answer (mcp/answer.ts), loaded with the SDK on the first call. A body that cannot be read as
// JSON-RPC is answered with a JSON-RPC error object (id null), as the MCP specification asks, not
// with the REST API's problem+json; the problem rides along as the error's data.
import type { Context, Middleware } from 'koa';
import type { Log } from '../core/platform/log';
import { isProblem, type Problem, problem, problemBody } from '../core/platform/problems';
import type { Services } from '../core/platform/services';
import { answerRpcError, invalidRequest, parseError, transportError } from './rpc-error';
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
    const { answerMcp, malformedMessage } = await loadAnswer();
    // No body read here (none sent, or not JSON): the SDK's transport answers that, in JSON-RPC too.
    const malformed = body === undefined ? null : malformedMessage(body);
    if (malformed)
      return answerRpcError(ctx, 400, { code: invalidRequest, message: malformed.message }, malformed.id);
    ctx.respond = false;
    await answerMcp(ctx, services, logger, body, toolsets);
  };
  const name: Middleware = async (ctx, next) => {
    ctx.state.operation = `MCP ${ctx.method}`;
    await next();
  };
  /** The shared body reader, its refusals answered in JSON-RPC. */
  const rpcBody: Middleware = async (ctx, next) => {
    let passed = false;
    try {
      await jsonBody(ctx, async () => {
        passed = true;
      });
    } catch (error) {
      if (!isProblem(error)) throw error;
      return answerBodyFault(ctx, error);
    }
    if (passed) await next();
  };
  return [originCheck, name, authenticate, rpcBody, handle];
}

/**
 * A body the reader refused: 400 parse error (not UTF-8, not JSON, text JSON cannot carry, a coding
 * that is not what it says), or the transport's own refusals as the SDK answers them (413, 415).
 */
function answerBodyFault(ctx: Context, p: Problem): void {
  const data = problemBody(p, { root: ctx.state.origin, instance: ctx.path, traceId: ctx.state.traceId });
  if (p.code === 'unsupportedEncoding') ctx.set('Accept-Encoding', String(p.extras.accepted));
  const parse = p.status === 400;
  answerRpcError(ctx, p.status, {
    code: parse ? parseError : transportError,
    message: parse ? `Parse error: ${p.detail}` : p.detail,
    data,
  });
}
