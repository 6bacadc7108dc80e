// A tool: the core operation plus what MCP clients need to know of it (name, safety hints).
import type { AnyOperation } from '../core/platform/pipeline/operation';
import { toolName } from '../core/platform/pipeline/operation';

export interface Hints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface Tool {
  name: string;
  operation: AnyOperation;
  hints: Hints;
}

/** What the MCP specification says a client assumes of a hint a tool leaves out. */
export const hintDefaults: Hints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/** Name and safety hints come from the operation's declaration. */
export function tool(operation: AnyOperation): Tool {
  return {
    name: toolName(operation),
    operation,
    hints: {
      readOnlyHint: operation.effect === 'read',
      destructiveHint: operation.effect === 'destructive',
      idempotentHint: operation.effect === 'read' || operation.repeatable === true,
      openWorldHint: operation.openWorld === true,
    },
  };
}

/**
 * The hints as tools/list sends them: those that differ from the defaults, so a client applying
 * the specification reads every hint truthfully. destructiveHint and idempotentHint mean nothing
 * for a read-only tool, so they are left out there.
 */
export function annotationsOf({ hints }: Tool): Partial<Hints> {
  const sent: Partial<Hints> = {};
  for (const key of Object.keys(hints) as (keyof Hints)[]) {
    if (hints.readOnlyHint && (key === 'destructiveHint' || key === 'idempotentHint')) continue;
    if (hints[key] !== hintDefaults[key]) sent[key] = hints[key];
  }
  return sent;
}
