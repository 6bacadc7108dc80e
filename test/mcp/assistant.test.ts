// An MCP server an assistant can really use (issue 11, item 4), through the SDK's client over
// HTTPS: the tool table (every tool described for an assistant without HTTP words, every schema
// valid JSON Schema 2020-12, every safety hint as the table below says, extensions marked), results
// valid against their output schemas, refusals an assistant can act on, the protocol errors the
// specification names, and the briefing resources and organiser prompts. What each key sees and
// the budgets of tools/list: toolsets.test.ts.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryTools } from '../../mcp/discovery-tools';
import { tools } from '../../mcp/tools';
import { eventBody } from '../support/fixtures';
import { hintsOf } from '../support/mcp-hints';
import { callTool } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let everything: string;
let client: Client;
let listed: Awaited<ReturnType<Client['listTools']>>['tools'];
let eventId: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Assistant workspace', true));
  ({ key: everything } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  // Every toolset: the whole table, and the discovery tools every connection lists.
  client = await t.mcp(everything, {}, '?toolsets=all');
  listed = (await client.listTools()).tools;
  eventId = (await callTool(client, 'list_events', { limit: 1 })).data.data[0].eventId;
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

/**
 * What each tool does to the world, as its hints must say: reads (read-only), writes (adds
 * something each call), sets (a change that, sent again, changes nothing more), removes
 * (destructive) and sends (reaches outside the service); call_tool runs any of them, so its hints
 * are the specification's defaults (may change, remove and reach outside).
 */
const kinds = {
  get_me: 'reads',
  get_workspace: 'reads',
  list_events: 'reads',
  get_event: 'reads',
  create_event: 'writes',
  update_event: 'sets',
  set_event_status: 'sets',
  delete_event: 'removes',
  get_event_stats: 'reads',
  list_questions: 'reads',
  get_answers_schema: 'reads',
  list_ticket_types: 'reads',
  get_ticket_type: 'reads',
  create_ticket_type: 'writes',
  update_ticket_type: 'sets',
  delete_ticket_type: 'removes',
  list_add_ons: 'reads',
  create_add_on: 'writes',
  delete_add_on: 'removes',
  list_discount_codes: 'reads',
  create_discount_code: 'writes',
  update_discount_code: 'sets',
  delete_discount_code: 'removes',
  list_orders: 'reads',
  get_order: 'reads',
  get_sales_pace: 'reads',
  list_attendees: 'reads',
  search_attendees: 'reads',
  get_attendee: 'reads',
  register_attendees: 'writes',
  update_attendee: 'sets',
  cancel_attendee: 'removes',
  list_emails: 'reads',
  get_email: 'reads',
  resend_ticket: 'writes',
  list_waiting_list: 'reads',
  add_to_waiting_list: 'writes',
  offer_waiting_place: 'writes',
  remove_from_waiting_list: 'removes',
  erase_person_data: 'removes',
  list_doors: 'reads',
  create_door: 'writes',
  update_door: 'sets',
  delete_door: 'removes',
  check_in_attendee: 'writes',
  check_in_by_code: 'writes',
  upload_offline_scans: 'writes',
  list_check_ins: 'reads',
  get_check_in_summary: 'reads',
  list_scan_list: 'reads',
  list_sessions: 'reads',
  get_session: 'reads',
  create_session: 'writes',
  update_session: 'sets',
  delete_session: 'removes',
  list_rooms: 'reads',
  create_room: 'writes',
  update_room: 'sets',
  delete_room: 'removes',
  list_tracks: 'reads',
  create_track: 'writes',
  update_track: 'sets',
  delete_track: 'removes',
  list_speakers: 'reads',
  create_speaker: 'writes',
  update_speaker: 'sets',
  delete_speaker: 'removes',
  list_sponsors: 'reads',
  list_sponsor_levels: 'reads',
  list_leads: 'reads',
  create_sponsor_level: 'writes',
  update_sponsor_level: 'sets',
  delete_sponsor_level: 'removes',
  create_sponsor: 'writes',
  update_sponsor: 'sets',
  delete_sponsor: 'removes',
  export_sponsor_leads: 'reads',
  export_event_data: 'reads',
  capture_lead: 'sets',
  list_certificates: 'reads',
  issue_certificate: 'writes',
  issue_attendance_certificates: 'sets',
  revoke_certificate: 'removes',
  list_budget_lines: 'reads',
  create_budget_line: 'writes',
  update_budget_line: 'sets',
  delete_budget_line: 'removes',
  list_content: 'reads',
  publish_content: 'writes',
  update_content: 'sets',
  unpublish_content: 'removes',
  update_lead: 'sets',
  delete_lead: 'removes',
  list_submissions: 'reads',
  get_submission: 'reads',
  get_call_for_speakers: 'reads',
  update_call_for_speakers: 'sets',
  create_submission: 'writes',
  update_submission: 'sets',
  withdraw_submission: 'sets',
  change_submission_status: 'writes',
  review_submission: 'sets',
  list_submission_reviews: 'reads',
  list_sharekit_leaderboard: 'reads',
  list_share_links: 'reads',
  create_share_link: 'writes',
  delete_share_link: 'removes',
  list_passes: 'reads',
  get_pass: 'reads',
  list_pass_holders: 'reads',
  list_crew: 'reads',
  invite_crew_member: 'writes',
  update_crew_member: 'sets',
  remove_crew_member: 'removes',
  list_shifts: 'reads',
  create_shift: 'writes',
  update_shift: 'sets',
  delete_shift: 'removes',
  sign_up_for_shift: 'sets',
  drop_shift: 'removes',
  list_surveys: 'reads',
  get_survey_results: 'reads',
  get_session_ratings: 'reads',
  create_survey: 'writes',
  update_survey: 'sets',
  delete_survey: 'removes',
  submit_survey_answer: 'writes',
  rate_session: 'writes',
  list_invoices: 'reads',
  get_invoice: 'reads',
  get_invoice_pdf: 'reads',
  send_invoice: 'sends',
  get_stripe_connection: 'reads',
  connect_stripe: 'connects',
  disconnect_stripe: 'removes',
  get_budget: 'reads',
  list_claims: 'reads',
  get_claim: 'reads',
  submit_claim: 'writes',
  approve_claim: 'sets',
  decline_claim: 'sets',
  pay_claim: 'sets',
  list_stays: 'reads',
  get_stay: 'reads',
  request_stay: 'writes',
  assign_stay: 'sets',
  update_stay: 'sets',
  cancel_stay: 'sets',
  delete_stay: 'removes',
  list_travel: 'reads',
  get_travel: 'reads',
  book_travel: 'writes',
  update_travel: 'sets',
  cancel_travel: 'sets',
  delete_travel: 'removes',
  get_invoicing: 'reads',
  update_invoicing: 'sets',
  get_sign_up: 'reads',
  update_sign_up: 'sets',
  create_order: 'writes',
  confirm_payment: 'sets',
  refund_order: 'removes',
  approve_order: 'sets',
  decline_order: 'removes',
  list_communities: 'reads',
  get_community: 'reads',
  list_community_members: 'reads',
  create_community: 'writes',
  update_community: 'sets',
  delete_community: 'removes',
  set_community_status: 'sets',
  join_community: 'writes',
  approve_community_member: 'sets',
  decline_community_member: 'sets',
  leave_community: 'removes',
  set_event_community: 'sets',
  list_event_types: 'reads',
  list_webhooks: 'reads',
  create_webhook: 'writes',
  get_webhook: 'reads',
  update_webhook: 'sets',
  delete_webhook: 'removes',
  rotate_webhook_secret: 'writes',
  send_test_message: 'sends',
  list_webhook_deliveries: 'reads',
  list_hooks: 'reads',
  create_hook: 'writes',
  create_hook_for_type: 'writes',
  get_hook: 'reads',
  delete_hook: 'removes',
  list_toolsets: 'reads',
  describe_tools: 'reads',
  call_tool: 'runs',
} as const;

const hintsOfKind = {
  reads: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  writes: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  sets: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  removes: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  sends: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  // Sets a connection to a service outside (checked with it first): the same again changes nothing.
  connects: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  runs: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
};

/** Words of the HTTP transport an assistant never meets through MCP. */
const httpWords =
  /\b(20[0-4]|30[0-4]|4\d\d|503)\b|Idempotency-Key|If-Match|If-None-Match|\bETag\b|\bheaders?\b|\bHTTP\b|\b(GET|POST|PATCH|PUT|DELETE)\b|over REST|query (string|parameter)|\?[a-z]+=|\/api\/v1/;

describe('the tool table', () => {
  it('has one tool per operation, and the discovery tools, each in the table of safety kinds', () => {
    expect(listed.map((x) => x.name).sort()).toEqual([...tools, ...discoveryTools].map((x) => x.name).sort());
    expect(Object.keys(kinds).sort()).toEqual(listed.map((x) => x.name).sort());
  });

  it('sends every safety hint as the table says, read the way the specification says', () => {
    for (const tool of listed) {
      expect(tool.annotations, tool.name).toBeDefined();
      expect(hintsOf(tool), tool.name).toEqual(hintsOfKind[kinds[tool.name as keyof typeof kinds]]);
    }
  });

  it('describes every tool for an assistant: what it does, its scope, and no HTTP words', () => {
    for (const tool of listed) {
      const text = tool.description ?? '';
      expect(text.length, tool.name).toBeGreaterThanOrEqual(60);
      expect(text.length, tool.name).toBeLessThanOrEqual(260);
      expect(text, tool.name).toMatch(/(Needs [a-z]+:(read|write)\b.*|Any working key may call it)\.?\)?$/);
      expect(text, tool.name).not.toMatch(httpWords);
      if ('cursor' in (tool.inputSchema.properties ?? {}))
        expect(text, `${tool.name} says how to page`).toMatch(/Page with cursor/);
      for (const [name, field] of Object.entries(tool.inputSchema.properties ?? {}))
        expect((field as { description?: string }).description ?? '', `${tool.name}.${name}`).not.toMatch(
          httpWords,
        );
    }
  });

  it("gives every tool a human title, its operation's title", () => {
    const titles = new Map([
      ...tools.map((x) => [x.name, x.operation.title] as const),
      ...discoveryTools.map((x) => [x.name, x.title] as const),
    ]);
    for (const tool of listed) {
      expect(tool.title, tool.name).toMatch(/^[A-Z]/);
      expect(tool.title, tool.name).toBe(titles.get(tool.name));
    }
    expect(listed.find((x) => x.name === 'update_event')?.title).toBe('Change an event');
  });

  it('names only tools that exist where a description points at another tool', () => {
    const names = new Set(listed.map((x) => x.name));
    for (const tool of listed)
      for (const [named] of (tool.description ?? '').matchAll(/\b[a-z]+(?:_[a-z]+)+\b/g))
        if (
          /^(get|list|create|update|delete|set|search|register|cancel|check|upload|rotate|send)_/.test(named)
        )
          expect(names.has(named), `${tool.name} names ${named}`).toBe(true);
  });

  it('gives every tool an input and an output schema that are valid JSON Schema 2020-12', () => {
    // Strict, except that an outline's required names need no properties of their own.
    const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
    addFormats(ajv);
    for (const tool of listed) {
      expect(ajv.validateSchema(tool.inputSchema), `${tool.name} input: ${ajv.errorsText()}`).toBe(true);
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema, tool.name).toBeDefined();
      expect(ajv.validateSchema(tool.outputSchema!), `${tool.name} output: ${ajv.errorsText()}`).toBe(true);
      expect(() => ajv.compile(tool.outputSchema!), tool.name).not.toThrow();
    }
  });

  it('says of each extension of the API, and of no other tool, that it is one, just before its scope', () => {
    const extensions = new Set(tools.filter((x) => x.operation.extension).map((x) => x.name));
    expect(extensions.size).toBeGreaterThan(0);
    for (const tool of listed) {
      const text = tool.description ?? '';
      if (extensions.has(tool.name))
        expect(text, tool.name).toMatch(/ Tessera extension\. (Needs [a-z]+:|Any working key)[^.]*\.$/);
      else expect(text, tool.name).not.toContain('extension');
    }
  });

  it('shows the numeric ranges an assistant should know before calling, not the bounds of storage', () => {
    const input = (name: string) =>
      listed.find((x) => x.name === name)!.inputSchema.properties as Record<string, any>;
    expect(input('get_sales_pace').days).toMatchObject({ minimum: 7, maximum: 90 });
    expect(input('create_ticket_type').vatRate).toMatchObject({ minimum: 0, maximum: 100 });
    expect(input('create_ticket_type').capacity.anyOf[0]).toEqual(
      expect.objectContaining({ type: 'integer', minimum: 0 }),
    );
    expect(input('create_ticket_type').capacity.anyOf[0].maximum).toBeUndefined();
  });

  it('explains paging, retries and refusals once, in the instructions', () => {
    const text = client.getInstructions() ?? '';
    for (const word of [
      'nextCursor',
      'updatedSince',
      'idempotencyKey',
      'ifMatch',
      'preconditionFailed',
      'people:read',
    ])
      expect(text, word).toContain(word);
  });
});

describe('results and refusals', () => {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  const outputOf = (name: string) => listed.find((x) => x.name === name)!.outputSchema!;

  it('answers structuredContent valid against the output schema, and the same JSON as text', async () => {
    const made = await client.callTool({
      name: 'create_event',
      arguments: eventBody({ name: 'Schema check' }),
    });
    const madeId = (made.structuredContent as { eventId: string }).eventId;
    const calls: [string, Record<string, unknown>][] = [
      ['get_me', {}],
      ['list_events', { limit: 2 }],
      ['get_event', { eventId: madeId }],
      ['get_event_stats', { eventId }],
      ['list_attendees', { eventId, limit: 3 }],
      ['list_ticket_types', { eventId }],
      ['get_sales_pace', { eventId }],
      ['list_doors', { eventId }],
    ];
    for (const [name, args] of calls) {
      const res = await client.callTool({ name, arguments: args });
      expect(res.isError, `${name}: ${JSON.stringify(res.content)}`).toBeFalsy();
      const validate = ajv.compile(outputOf(name));
      expect(validate(res.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(JSON.parse((res.content as { text: string }[])[0]!.text)).toEqual(res.structuredContent);
    }
    expect(ajv.compile(outputOf('create_event'))(made.structuredContent)).toBe(true);
  });

  it('answers invalid arguments as a tool error carrying the problem, each field named, so the call can be corrected', async () => {
    const res = await callTool(client, 'create_event', { name: '', timeZone: 'Mars/Base', currency: 'EUR' });
    expect(res.isError).toBe(true);
    expect(res.data).toMatchObject({ code: 'invalidRequest', status: 400 });
    const fields = (res.data.errors as { field: string }[]).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'timeZone']));
  });

  it('answers a refusal of the rules with the REST problem and its details', async () => {
    const res = await callTool(client, 'get_event', { eventId: '00000000-0000-4000-8000-000000000000' });
    expect(res).toMatchObject({ isError: true, data: { code: 'eventNotFound', status: 404 } });
    expect(res.data.type).toBe(`${t.server.publicOrigin}/developers/errors#eventNotFound`);
  });
});

describe('resources', () => {
  it('offers the briefing of an event as a resource template', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({
        uriTemplate: 'tessera://events/{eventId}/briefing',
        mimeType: 'text/markdown',
      }),
    ]);
  });

  it("lists each event's briefing", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`tessera://events/${eventId}/briefing`);
  });

  it('reads a briefing with the basics, sales, doors and programme', async () => {
    const uri = `tessera://events/${eventId}/briefing`;
    const { contents } = await client.readResource({ uri });
    const text = (contents[0] as { text: string }).text;
    expect(contents[0]).toMatchObject({ uri, mimeType: 'text/markdown' });
    for (const part of ['# ', '## Sales', 'Registered:', '## Doors', '## Next on the programme', 'As of '])
      expect(text, part).toContain(part);
  });

  it("withholds the parts the key's scopes do not reach, saying which scope they need", async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' });
    const narrow = await t.mcp(key);
    const { contents } = await narrow.readResource({ uri: `tessera://events/${eventId}/briefing` });
    const text = (contents[0] as { text: string }).text;
    expect(text).toContain('Registered:');
    expect(text).toContain('Not shown: needs orders:read.');
    expect(text).toContain('Not shown: needs checkins:read.');
    expect(text).toContain('Not shown: needs program:read.');
    await narrow.close();
  });

  it('answers an unknown event or address with "resource not found" (-32002), the problem in its data', async () => {
    await expect(
      client.readResource({ uri: 'tessera://events/00000000-0000-4000-8000-000000000000/briefing' }),
    ).rejects.toMatchObject({ code: -32002, data: { code: 'eventNotFound' } });
    await expect(client.readResource({ uri: 'tessera://nothing/here' })).rejects.toMatchObject({
      code: -32002,
    });
  });
});

describe('prompts', () => {
  it('lists prompts for common organiser tasks', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual([
      'check_readiness',
      'prepare_doors',
      'summarise_sales',
    ]);
    for (const p of prompts) expect(p.arguments?.find((a) => a.name === 'eventId')?.required).toBe(true);
  });

  it('gives the task with the tools to use, and the briefing embedded', async () => {
    const res = await client.getPrompt({ name: 'prepare_doors', arguments: { eventId, day: '2026-12-01' } });
    const [task, briefing] = res.messages;
    expect((task!.content as { text: string }).text).toContain('2026-12-01');
    expect((task!.content as { text: string }).text).toContain('list_doors');
    expect(briefing!.content).toMatchObject({
      type: 'resource',
      resource: { uri: `tessera://events/${eventId}/briefing`, mimeType: 'text/markdown' },
    });
    const sales = await client.getPrompt({ name: 'summarise_sales', arguments: { eventId } });
    expect((sales.messages[0]!.content as { text: string }).text).toContain('last 7 days');
  });

  it('refuses a prompt without its arguments, or an unknown one, with InvalidParams (-32602)', async () => {
    await expect(client.getPrompt({ name: 'prepare_doors', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      data: { missing: ['eventId'] },
    });
    await expect(
      client.getPrompt({ name: 'prepare_doors', arguments: { eventId, day: 'tomorrow' } }),
    ).rejects.toMatchObject({
      code: -32602,
    });
    await expect(client.getPrompt({ name: 'plan_world_domination', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });
});
