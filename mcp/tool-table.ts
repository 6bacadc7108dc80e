// A tool: the core operation plus what MCP clients need to know of it (name, hints).
import type { AnyOperation } from '../core/platform/operation';
import { toolName } from '../core/platform/operation';

export interface Tool {
  name: string;
  operation: AnyOperation;
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

/** Name, description and safety hints all come from the operation. */
export function tool(operation: AnyOperation): Tool {
  return {
    name: toolName(operation),
    operation,
    annotations: {
      title: operation.title,
      readOnlyHint: operation.effect === 'read',
      destructiveHint: operation.effect === 'destructive',
      idempotentHint: operation.effect === 'read',
      openWorldHint: operation.openWorld === true,
    },
  };
}
