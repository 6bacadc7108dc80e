// What tools/list answers: the tools the caller's key may call (core's mayCall, the rule invoke
// refuses by) in the toolsets the connection lists, and the discovery tools that reach the rest,
// described for an assistant, with compact schemas and truthful safety hints. So a list stays
// small however many tools the server has. The schemas are made once, at start; a request only
// picks among them.
import { mayCall } from '../core/platform/pipeline/call-permission';
import { discoveryTools } from './discovery-tools';
import { type ResultOf, toolInputSchema, toolOutputSchema } from './tool-schemas';
import { annotationsOf, type Tool } from './tool-table';
import { tools } from './tools';
import { isListed, type ToolsetChoice } from './toolset-choice';
import { toolsetOf } from './toolsets';

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
const itemOf = (t: Tool) =>
  (t.operation.output as { entries?: { data?: { item?: unknown } } }).entries?.data?.item;
for (const t of tools) {
  const item = itemOf(t);
  if (t.name.startsWith('list_') && item && !owners.has(item))
    owners.set(item, { tool: t.name, says: `As an item of ${t.name}.` });
}
const referring: ResultOf = (schema) => owners.get(schema);
const selfContained: ResultOf = () => undefined;

/** The other tool whose result this one's is said to be, if any. */
function ownerOf(t: Tool): string | undefined {
  const owner = owners.get(t.operation.output)?.tool ?? owners.get(itemOf(t))?.tool;
  return owner === t.name ? undefined : owner;
}

/** The scope sentence every description ends with (a test holds them to it). */
const scopeSentence = /\s*(Needs [^.]*|Any working key may call it)\.$/;

/** Tool names in a text: get_event, list_webhook_deliveries, … */
const toolNames = /\b[a-z]+(?:_[a-z]+)+\b/g;

interface Prepared {
  tool: Tool;
  twin?: string;
  /** The tool whose result this one's output schema refers to. */
  owner?: string;
  /** The description's sentences before its scope sentence, each with the tools it names. */
  sentences: { text: string; names: string[] }[];
  /** Said after them, before the scope: how it pages, that it is an extension. */
  marks: string[];
  scope: string;
  inputSchema: { withTwin: object; alone: object };
  outputSchema: { referring: object; selfContained: object };
  annotations: ReturnType<typeof annotationsOf>;
}

function prepare(t: Tool): Prepared {
  const op = t.operation;
  const twin = createTwin(t);
  const withTwin = toolInputSchema(op, twin && toolInputSchema(twin.operation));
  const alone = twin ? toolInputSchema(op) : withTwin;
  const scope = scopeSentence.exec(op.description);
  const body = scope ? op.description.slice(0, scope.index) : op.description;
  const marks: string[] = [];
  // That a list pages, and syncs where it can; the instructions say how.
  const fields = (alone.properties ?? {}) as Record<string, unknown>;
  if ('cursor' in fields)
    marks.push('updatedSince' in fields ? 'Page with cursor; sync with updatedSince.' : 'Page with cursor.');
  // Not in the API's published contract, as the REST reference marks it too.
  if (op.extension) marks.push('Tessera extension.');
  return {
    tool: t,
    twin: twin?.name,
    owner: ownerOf(t),
    sentences: body.split(/(?<=\.)\s+(?=[A-Z])/).map((text) => ({
      text,
      names: [...text.matchAll(toolNames)].map(([n]) => n).filter((n) => byName.has(n)),
    })),
    marks,
    scope: scope ? scope[0].trim() : '',
    inputSchema: { withTwin, alone },
    outputSchema: {
      referring: toolOutputSchema(op, t.name, referring),
      selfContained: toolOutputSchema(op, t.name, selfContained),
    },
    annotations: annotationsOf(t),
  };
}

const prepared = tools.map(prepare);

/**
 * A description for a caller seeing `shown`: a sentence pointing at a tool the caller cannot see
 * is left out (the first, saying what the tool does, always stays); the twin is named only when
 * shown.
 */
function describe(p: Prepared, shown: ReadonlySet<string>, twinShown: boolean): string {
  const sentences = p.sentences
    .filter((s, i) => i === 0 || s.names.every((n) => shown.has(n)))
    .map((s) => s.text);
  const namesTwin = p.twin !== undefined && sentences.some((s) => s.includes(p.twin!));
  const twin = twinShown && !namesTwin ? [`Arguments as in ${p.twin}.`] : [];
  return [...sentences, ...twin, ...p.marks, p.scope].filter(Boolean).join(' ');
}

function entry(p: Prepared, shown: ReadonlySet<string>) {
  const twinShown = p.twin !== undefined && shown.has(p.twin);
  const op = p.tool.operation;
  return {
    name: p.tool.name,
    // MCP's display name for people choosing or approving a call: the operation's own title.
    title: op.title,
    description: describe(p, shown, twinShown),
    inputSchema: twinShown ? p.inputSchema.withTwin : p.inputSchema.alone,
    // A result said to be another tool's is shown in full when that tool is not listed.
    outputSchema:
      p.owner === undefined || shown.has(p.owner) ? p.outputSchema.referring : p.outputSchema.selfContained,
    annotations: p.annotations,
  };
}

export type ListedTool = ReturnType<typeof entry>;

type Caller = Parameters<typeof mayCall>[1];

/** The table's tools this caller's key may call, in the table's order. */
export function callableTools(caller: Caller): Tool[] {
  return tools.filter((t) => mayCall(t.operation, caller));
}

/** tools/list for one caller: the tools its key may call in the listed toolsets, then discovery's. */
export function toolListFor(
  caller: Caller,
  choice: ToolsetChoice,
): (ListedTool | (typeof discoveryTools)[number])[] {
  const listed = prepared.filter(
    (p) => isListed(choice, toolsetOf(p.tool)) && mayCall(p.tool.operation, caller),
  );
  const shown = new Set(listed.map((p) => p.tool.name));
  return [...listed.map((p) => entry(p, shown)), ...discoveryTools];
}

/**
 * Definitions of tools this caller may call, listed or not (describe_tools): said as to a caller
 * who sees every tool its key may call, since call_tool reaches them all.
 */
export function definitionsFor(caller: Caller, names: readonly string[]): ListedTool[] {
  const reachable = new Set(callableTools(caller).map((t) => t.name));
  const byToolName = new Map(prepared.map((p) => [p.tool.name, p]));
  return names.filter((n) => reachable.has(n)).map((n) => entry(byToolName.get(n)!, reachable));
}
