// Whether a body /mcp parsed is JSON-RPC: one message (a request, a notification or a response) or
// a batch of them, never an empty batch. The SDK's transport calls every such fault a parse error;
// JSON-RPC 2.0 calls it an invalid request (-32600), which is what /mcp answers.
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

export interface MalformedMessage {
  message: string;
  /** The message's own id when it can be read (a string or an integer), else null. */
  id: string | number | null;
}

const shape =
  'a JSON-RPC 2.0 message: an object with jsonrpc "2.0" and a method (and an id for a request), or a result or error with an id';

function readableId(message: unknown): string | number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === 'string' || Number.isInteger(id) ? (id as string | number) : null;
}

/** Why the body is not JSON-RPC, or null when it is. */
export function malformedMessage(body: unknown): MalformedMessage | null {
  if (Array.isArray(body)) {
    if (body.length === 0) return { message: 'Invalid Request: the batch is empty.', id: null };
    const wrong = body.findIndex((item) => !JSONRPCMessageSchema.safeParse(item).success);
    if (wrong < 0) return null;
    return { message: `Invalid Request: item ${wrong} of the batch is not ${shape}.`, id: null };
  }
  if (JSONRPCMessageSchema.safeParse(body).success) return null;
  const what =
    body === null || typeof body !== 'object' ? `JSON ${body === null ? 'null' : typeof body}` : 'an object';
  return { message: `Invalid Request: the body is ${what}, not ${shape}.`, id: readableId(body) };
}
