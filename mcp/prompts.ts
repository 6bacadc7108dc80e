// Prompts for common organiser tasks: each names the tools to use, in order, and carries the
// event's briefing as an embedded resource so the assistant starts from the facts.
import { ErrorCode, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import { eventBriefing } from '../core/briefing';
import type { McpRequest } from './call-context';
import { callContext } from './call-context';
import { asRpcError, briefingUri } from './resources';
import { rpcError } from './rpc-error';

interface PromptDefinition extends Prompt {
  /** The task, in the organiser's words, given the arguments. */
  task(args: Record<string, string>): string;
}

const eventIdArgument = {
  name: 'eventId',
  description: 'The event (list_events gives ids).',
  required: true,
};

const prompts: PromptDefinition[] = [
  {
    name: 'prepare_doors',
    title: 'Prepare the doors',
    description:
      "Checks an event's doors for a day of the event and proposes what to change before people arrive.",
    arguments: [
      eventIdArgument,
      { name: 'day', description: 'The venue day, YYYY-MM-DD; tomorrow when absent.', required: false },
    ],
    task: (args) =>
      [
        `Prepare the doors of this event for ${args.day ? `the venue day ${args.day}` : 'tomorrow (venue time)'}.`,
        '1. Read the briefing below; list_doors gives every door with the ticket types and add-ons it admits.',
        "2. list_sessions: the sessions that day; a session with fewer seats than its room's, or a workshop add-on, may need a session door.",
        '3. get_check_in_summary and get_event_stats: how many are expected, and whether a door capacity is lower than the people it should admit.',
        '4. Propose the changes as a short list (create_door or update_door with the arguments you would send) and wait for my go-ahead before changing anything.',
      ].join('\n'),
  },
  {
    name: 'summarise_sales',
    title: 'Summarise sales',
    description:
      'Summarises how an event sold over the last days: tickets, revenue, pace, what sells out and what lags.',
    arguments: [
      eventIdArgument,
      { name: 'days', description: 'How many days back; 7 when absent.', required: false },
    ],
    task: (args) =>
      [
        `Summarise this event's sales over the last ${args.days ?? '7'} days for the organiser.`,
        '1. get_sales_pace: tickets and paid revenue per venue day, the change on the week before, and the projection.',
        '2. get_event_stats: places taken and left per ticket type (name any close to selling out or barely moving), and its money: received, outstanding (held in card checkout, awaiting transfer, pending approval), refunded, complimentary and net.',
        '3. list_orders with sort -created: recent orders awaiting payment (pending, transfer, onAccount) worth a reminder, and those waiting for approval (status requested) to decide.',
        'Answer in five bullet points or fewer, with figures in the event currency. Change nothing.',
      ].join('\n'),
  },
  {
    name: 'check_readiness',
    title: 'Check an event is ready',
    description: 'Reviews an event before it is published or before it starts, and lists what is missing.',
    arguments: [eventIdArgument],
    task: () =>
      [
        'Check whether this event is ready, and list what is missing, most important first.',
        '1. get_event: dates, venue (an in-person event needs one), languages and modules on.',
        '2. list_ticket_types: at least one public ticket type on sale, prices and capacities that add up.',
        '3. list_questions: what registration asks; list_sessions, list_rooms and list_speakers when the programme module is on.',
        '4. list_doors when the event is in person: a main entrance exists.',
        'Say what to fix and which tool would fix it; change nothing.',
      ].join('\n'),
  },
];

const byName = new Map(prompts.map((p) => [p.name, p]));

export const promptList: Prompt[] = prompts.map(({ task: _task, ...prompt }) => prompt);

export async function getPrompt(
  req: McpRequest,
  name: string,
  args: Record<string, string> = {},
): Promise<GetPromptResult> {
  const prompt = byName.get(name);
  if (!prompt) throw rpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}; prompts/list names them.`);
  const missing = (prompt.arguments ?? []).filter((a) => a.required && !args[a.name]).map((a) => a.name);
  if (missing.length)
    throw rpcError(ErrorCode.InvalidParams, `The prompt ${name} needs ${missing.join(', ')}.`, {
      missing,
    });
  if (args.day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(args.day))
    throw rpcError(ErrorCode.InvalidParams, 'day is a venue day, YYYY-MM-DD.', { field: 'day' });
  if (args.days !== undefined && !/^[1-9]\d{0,2}$/.test(args.days))
    throw rpcError(ErrorCode.InvalidParams, 'days is a whole number from 1 to 999.', { field: 'days' });
  const uri = briefingUri(args.eventId!);
  const briefing = await asRpcError(req, `prompts/get ${name}`, () =>
    eventBriefing(callContext(req), args.eventId!),
  );
  return {
    description: prompt.description,
    messages: [
      { role: 'user', content: { type: 'text', text: prompt.task(args) } },
      {
        role: 'user',
        content: { type: 'resource', resource: { uri, mimeType: 'text/markdown', text: briefing } },
      },
    ],
  };
}
