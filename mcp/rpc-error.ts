// A JSON-RPC error for the SDK's Server to answer. Not McpError: its message would carry the
// "MCP error -32602:" prefix, which the client then adds a second time. And the answer /mcp gives
// itself, before the SDK sees a message: a JSON-RPC error object with HTTP status as the SDK's
// transport gives for such errors (400 parse error or invalid request, 413, 415).
import type { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from 'koa';

/** The MCP code for a resource that does not exist. */
export const resourceNotFound = -32002;
/** JSON-RPC 2.0: the body is not JSON (here also: not UTF-8, or text JSON cannot carry faithfully). */
export const parseError = -32700;
/** JSON-RPC 2.0: JSON, but not a JSON-RPC request, notification or response. */
export const invalidRequest = -32600;
/** The SDK's transport code for a refusal of the HTTP request itself (too large, wrong media type). */
export const transportError = -32000;

export function rpcError(code: ErrorCode | number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, data });
}

/** Answers a JSON-RPC error object; id null unless the message's own id could be read (JSON-RPC 2.0 §5). */
export function answerRpcError(
  ctx: Context,
  status: number,
  error: { code: number; message: string; data?: unknown },
  id: string | number | null = null,
): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = { jsonrpc: '2.0', id, error };
}
