// What tools/list answers: every tool of the table, described for an assistant, with compact
// schemas and truthful safety hints. Built once at start.
import type { AnyOperation } from '../core/platform/pipeline/operation';
import { type ResultOf, toolInputSchema, toolOutputSchema } from './tool-schemas';
import { annotationsOf, type Tool } from './tool-table';
import { tools } from './tools';

const byName = new Map(tools.map((t) => [t.name, t]));

/** Tools that take another's fields, meaning the same; update_x takes create_x's too. */
const twins: Record<string, string> = { create_hook_for_type: 'create_hook' };

const createTwin = (t: Tool): Tool | undefined =>
  byName.get(twins[t.name] ?? (t.name.startsWith('update_') ? t.name.replace(/^update_/, 'create_') : ''));

/**
 * The tool a result shape belongs to: a get tool's whole result, or else a list's items; writes
 * and lists returning the same shape refer to it instead of repeating it.
 */
const owners = new Map<unknown, { tool: string; says: string }>();
for (const t of tools)
  if (t.name.startsWith('get_') && !owners.has(t.operation.output))
    owners.set(t.operation.output, { tool: t.name, says: `As ${t.name} returns.` });
for (const t of tools) {
  const item = (t.operation.output as { entries?: { data?: { item?: unknown } } }).entries?.data?.item;
  if (t.name.startsWith('list_') && item && !owners.has(item))
    owners.set(item, { tool: t.name, says: `As an item of ${t.name}.` });
}
const resultOf: ResultOf = (schema) => owners.get(schema);

/**
 * That a list pages, said before its scope sentence. The instructions say how, and syncing with
 * updatedSince too: the argument itself shows which lists take it, so no description repeats it.
 */
function withPaging(description: string, input: { properties?: Record<string, unknown> }): string {
  if (!('cursor' in (input.properties ?? {}))) return description;
  const how = 'Page with cursor.';
  const scope = /\s*(Needs [^.]*|Any working key may call it)\.$/.exec(description);
  return scope ? `${description.slice(0, scope.index)} ${how}${scope[0]}` : `${description} ${how}`;
}

function entry(t: Tool, op: AnyOperation = t.operation) {
  const twin = createTwin(t);
  const inputSchema = toolInputSchema(op, twin && toolInputSchema(twin.operation));
  return {
    name: t.name,
    // MCP's display name for people choosing or approving a call: the operation's own title.
    title: op.title,
    description: twin
      ? op.description.includes(twin.name)
        ? op.description
        : `${op.description} Arguments as in ${twin.name}.`
      : withPaging(op.description, inputSchema as { properties?: Record<string, unknown> }),
    inputSchema,
    outputSchema: toolOutputSchema(op, t.name, resultOf),
    annotations: annotationsOf(t),
  };
}

export const toolList = tools.map((t) => entry(t));
