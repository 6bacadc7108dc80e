// The operation label of a request's metrics, from a known, bounded set: a REST operation
// ("GET /api/v1/events/{eventId}"), an MCP call by a tool this server has ("MCP tools/call
// list_events"), the route of a page ("GET /e/:slug"), or a fixed word. Names a client made up
// (an unknown tool, an odd JSON-RPC method) become "MCP other": labels must never grow with input.
import type { Context } from 'koa';
import { discoveryTools } from '../../mcp/discovery-tools';
import { tools } from '../../mcp/tools';
import { apiBase, openApiPath } from '../../rest/route-table';
import { routes } from '../../rest/routes';

/** The JSON-RPC methods an MCP client sends this server. */
const mcpMethods = [
  'initialize',
  'ping',
  'notifications/initialized',
  'notifications/cancelled',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'batch',
];

let known: Set<string> | null = null;

/** Every operation name REST and MCP give ctx.state.operation (rest/router.ts, mcp/endpoint.ts). */
function knownOperations(): Set<string> {
  if (known) return known;
  const toolNames = [...tools.map((t) => t.name), ...discoveryTools.map((t) => t.name)];
  known = new Set([
    ...routes.map((r) => `${r.method} ${apiBase}${openApiPath(r.path)}`),
    ...toolNames.map((name) => `MCP tools/call ${name}`),
    ...tools.map((t) => `MCP tools/call call_tool ${t.name}`),
    ...mcpMethods.map((method) => `MCP ${method}`),
    // Before the body is read (a refused key, a method other than POST).
    ...['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map((method) => `MCP ${method}`),
  ]);
  return known;
}

export function operationLabel(ctx: Context): string {
  const operation = ctx.state.operation as string | undefined;
  if (operation !== undefined) {
    if (knownOperations().has(operation)) return operation;
    return operation.startsWith('MCP ') ? 'MCP other' : 'other';
  }
  // koa-router's pattern of the route that answered (pages, sign-in, docs, /healthz): bounded by the code.
  const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof route === 'string') return `${ctx.method} ${route}`;
  if (ctx.path.startsWith('/oauth/')) return 'oauth';
  if (ctx.path.startsWith('/.well-known/')) return 'well-known';
  return 'unmatched';
}
