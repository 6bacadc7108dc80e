// A JSON-RPC error for the SDK's Server to answer. Not McpError: its message would carry the
// "MCP error -32602:" prefix, which the client then adds a second time.
import type { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/** The MCP code for a resource that does not exist. */
export const resourceNotFound = -32002;

export function rpcError(code: ErrorCode | number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, data });
}
