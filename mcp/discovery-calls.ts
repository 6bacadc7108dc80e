// The discovery tools' calls (list_toolsets, describe_tools, call_tool), and the routing of
// tools/call between them and the tool table. call_tool runs a table tool through tools/call's own
// path (mcp/tool-calls.ts): the same invoke, scopes, demonstration and people rules, result and
// _meta.etag. What a key may not call it never shows, as tools/list does not.
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Log } from '../core/platform/log';
import { type Problem, problem } from '../core/platform/problems';
import { type McpRequest, problemOf } from './call-context';
import { discoveryNames, discoveryTools } from './discovery-tools';
import { callTool, nearestTools, toolsByName } from './tool-calls';
import { callableTools, definitionsFor } from './tool-list';
import { isListed, type ToolsetName, toolsetCatalogue, toolsetNames, toolsetsUrl } from './toolset-choice';
import { toolsetOf } from './toolsets';

const answer = (data: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(data) }],
  structuredContent: data,
});

const refusal = (req: McpRequest, p: Problem, tool: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify(problemOf(req, p, tool)) }],
});

const argumentNames = new Map(discoveryTools.map((t) => [t.name, Object.keys(t.inputSchema.properties)]));

const mcpUrl = (req: McpRequest) => `${req.koa.state.origin}${req.koa.path}`;

/** The address listing this toolset too: this connection's, if it lists it already. */
function urlListing(req: McpRequest, name: ToolsetName): string {
  const { all, added } = req.toolsets;
  if (all) return `${mcpUrl(req)}?toolsets=all`;
  return toolsetsUrl(mcpUrl(req), added.includes(name) ? added : [...added, name]);
}

function listToolsets(req: McpRequest): CallToolResult {
  const callable = callableTools(req.actor);
  const toolsets = toolsetNames
    .map((name) => ({ name, tools: callable.filter((t) => toolsetOf(t) === name) }))
    .filter(({ tools }) => tools.length > 0)
    .map(({ name, tools }) => ({
      name,
      says: toolsetCatalogue[name],
      listed: isListed(req.toolsets, name),
      url: urlListing(req, name),
      tools: tools.map((t) => ({ name: t.name, title: t.operation.title })),
    }));
  return answer({ toolsets, allUrl: `${mcpUrl(req)}?toolsets=all` });
}

function describeTools(req: McpRequest, args: Record<string, unknown>): CallToolResult {
  const { names, toolset } = args as { names?: unknown; toolset?: unknown };
  const invalid = (detail: string, extras?: Record<string, unknown>) =>
    refusal(req, problem('invalidRequest', detail, extras), 'describe_tools');
  if (names !== undefined && !(Array.isArray(names) && names.every((n) => typeof n === 'string')))
    return invalid('names must be a list of tool names.');
  if (
    toolset !== undefined &&
    !(typeof toolset === 'string' && toolsetNames.includes(toolset as ToolsetName))
  )
    return invalid(`Unknown toolset: ${String(toolset)}. The toolsets are ${toolsetNames.join(', ')}.`, {
      toolsets: toolsetNames,
    });
  if (names === undefined && toolset === undefined) return invalid('Name the tools (names) or a toolset.');
  const asked = [
    ...((names as string[] | undefined) ?? []),
    ...(toolset
      ? callableTools(req.actor)
          .filter((t) => toolsetOf(t) === toolset)
          .map((t) => t.name)
      : []),
  ];
  const found = definitionsFor(req.actor, [...new Set(asked)]);
  const missing = asked.filter((n) => !found.some((t) => t.name === n));
  if (missing.length > 0)
    return invalid(
      `No tool this key may call is named ${missing.join(', ')}; list_toolsets names those it may call.`,
      { unknown: missing },
    );
  return answer({ tools: found });
}

async function callByName(req: McpRequest, log: Log, args: Record<string, unknown>): Promise<CallToolResult> {
  const { name, arguments: inner } = args as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string' || !toolsByName.has(name)) {
    const nearest = typeof name === 'string' ? nearestTools(name) : [];
    return refusal(
      req,
      problem(
        'invalidRequest',
        `Unknown tool: ${String(name)}.${nearest.length ? ` Nearest: ${nearest.join(', ')}.` : ''} list_toolsets names those this key may call.`,
        { tool: name, nearest },
      ),
      'call_tool',
    );
  }
  if (inner !== undefined && (typeof inner !== 'object' || inner === null || Array.isArray(inner)))
    return refusal(req, problem('invalidRequest', 'arguments must be an object.'), 'call_tool');
  return callTool(req, log, { name, arguments: inner as Record<string, unknown> | undefined });
}

/** tools/call: a discovery tool, or a tool of the table. */
export async function answerToolCall(
  req: McpRequest,
  log: Log,
  params: CallToolRequest['params'],
): Promise<CallToolResult> {
  if (!discoveryNames.has(params.name)) return callTool(req, log, params);
  const args = params.arguments ?? {};
  // Their argument objects are closed, as the table's tools' are.
  const allowed = argumentNames.get(params.name)!;
  const unknown = Object.keys(args).filter((key) => !allowed.includes(key));
  if (unknown.length > 0)
    return refusal(
      req,
      problem(
        'invalidRequest',
        `${params.name} takes no ${unknown.join(', ')}; it takes ${allowed.join(', ') || 'no arguments'}.`,
      ),
      params.name,
    );
  if (params.name === 'list_toolsets') return listToolsets(req);
  if (params.name === 'describe_tools') return describeTools(req, args);
  return callByName(req, log, args);
}
