// tools/call: the tool's operation through core's callOperation (as REST's routes), so scopes, validation and problems match
// REST exactly. A refusal (invalid arguments included) is a tool error carrying the REST problem,
// so the assistant can read the code and correct its call; a name that is no tool is a protocol
// error (InvalidParams), as the MCP specification asks, with the nearest tool names.
import { type CallToolRequest, type CallToolResult, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { Log } from '../core/platform/log';
import { callOperation } from '../core/platform/pipeline/call-operation';
import { type DocumentFile, isDocumentFile } from '../core/platform/pipeline/document-file';
import { isTableFile } from '../core/platform/pipeline/table-file';
import { isProblem, problem } from '../core/platform/problems';
import { type McpRequest, problemOf, requestFacts } from './call-context';
import { rpcError } from './rpc-error';
import type { Tool } from './tool-table';
import { tools } from './tools';

/** The rows of a file (an export) an assistant is handed at most. */
export const fileRowsToAssistant = 50;

export const toolsByName = new Map<string, Tool>(tools.map((t) => [t.name, t]));

/** Tools sharing the most words with the name asked for (get_attendes -> get_attendee, …). */
export function nearestTools(name: string): string[] {
  const words = new Set(
    name
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter(Boolean),
  );
  const stem = (w: string) => w.replace(/e?s$/, '');
  const stems = new Set([...words].map(stem));
  const scored = tools
    .map((t) => ({ name: t.name, score: t.name.split('_').filter((w) => stems.has(stem(w))).length }))
    .filter((t) => t.score > 0)
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
  return scored.slice(0, 3).map((t) => t.name);
}

/**
 * A whole file (an invoice's PDF): what it is as text and structured content, and the file itself
 * as an embedded resource (base64), which clients hand on to the person or save.
 */
function documentResult(file: DocumentFile, formats: Readonly<Record<string, string>> = {}): CallToolResult {
  return {
    content: [
      { type: 'text', text: JSON.stringify(file.about) },
      {
        type: 'resource',
        resource: {
          uri: file.uri,
          mimeType: formats[file.format] ?? 'application/octet-stream',
          blob: file.bytes.toString('base64'),
        },
      },
    ],
    structuredContent: file.about,
  };
}

export async function callTool(
  req: McpRequest,
  log: Log,
  params: CallToolRequest['params'],
): Promise<CallToolResult> {
  const found = toolsByName.get(params.name);
  if (!found) {
    const nearest = nearestTools(params.name);
    throw rpcError(
      ErrorCode.InvalidParams,
      `Unknown tool: ${params.name}.${nearest.length ? ` Nearest: ${nearest.join(', ')}.` : ''} tools/list names those this key may call.`,
      { tool: params.name, nearest },
    );
  }
  const { operation } = found;
  const { idempotencyKey, ifMatch, ...args } = params.arguments ?? {};
  try {
    const answer = await callOperation({
      operation,
      actor: req.actor,
      services: req.services,
      input: args,
      request: {
        ...requestFacts(req),
        ifMatch: ifMatch === undefined ? undefined : String(ifMatch),
        idempotencyKey: idempotencyKey === undefined ? undefined : String(idempotencyKey),
        callName: { method: 'MCP', path: found.name },
        bodyFields: new Set(Object.keys(args)),
      },
    });
    if (isDocumentFile(answer.data)) return documentResult(answer.data, found.operation.file?.formats);
    // A file is too large for an assistant's context: it gets the first rows, the total, and where the whole file is.
    const data = isTableFile(answer.data) ? await answer.data.preview(fileRowsToAssistant) : answer.data;
    return {
      content: [{ type: 'text', text: JSON.stringify(data) }],
      structuredContent: data as Record<string, unknown>,
      ...(answer.etag ? { _meta: { etag: answer.etag } } : {}),
    };
  } catch (error) {
    if (!isProblem(error))
      log.error({ traceId: req.koa.state.traceId, tool: params.name, err: error }, 'tool call failed');
    const body = problemOf(req, isProblem(error) ? error : problem('serverError'), params.name);
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
  }
}
