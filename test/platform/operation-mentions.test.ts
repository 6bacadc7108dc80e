// A refusal that points to another operation names it as the caller's transport does: REST by its
// method and path, MCP by its tool name (core/platform/mentions.ts); counts of what depends on a thing
// read in a person's words ("3 invoice lines"), never the internal kind names.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countInWords, type DependentKind, dependentWords } from '../../core/platform/in-use';
import { toolName } from '../../core/platform/pipeline/operation';
import { problemCatalogue } from '../../core/platform/problems';
import { toolOperationName } from '../../mcp/operation-names';
import { tools } from '../../mcp/tools';
import { restOperationName } from '../../rest/operation-names';
import { routes } from '../../rest/routes';
import { eventBody, expectProblem } from '../support/fixtures';
import { sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

const toolNames = new Set([...tools.map((t) => t.name), ...routes.map((r) => toolName(r.operation))]);
const restAddress = /\b(GET|POST|PUT|PATCH|DELETE) \//;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The text of every string written where core makes a refusal: problem(), refuseWhileUsed(), a field error. */
function refusalTexts(): { file: string; text: string }[] {
  const found: { file: string; text: string }[] = [];
  const refusalCalls = new Set(['problem', 'refuseWhileUsed', 'Problem']);
  for (const file of sourceFiles(join(import.meta.dirname, '../../core'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const strings = (node: ts.Node) => {
      if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node))
        found.push({ file, text: node.text });
      node.forEachChild(strings);
    };
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const callee = node.expression;
        const name = ts.isIdentifier(callee)
          ? callee.text
          : ts.isPropertyAccessExpression(callee)
            ? callee.name.text
            : '';
        const fieldError = name === 'add' && /errors/i.test(callee.getText(source));
        if (refusalCalls.has(name) || fieldError) for (const arg of node.arguments ?? []) strings(arg);
      }
      node.forEachChild(visit);
    };
    visit(source);
  }
  return found;
}

describe('refusals written in core', () => {
  const texts = refusalTexts();

  it('are found by the scan (it reads the refusals it is meant to)', () => {
    expect(texts.length).toBeGreaterThan(300);
    expect(texts.some((t) => t.text.includes('is published; return it to draft with'))).toBe(true);
  });

  it('never hard-code an MCP tool name: they mention the operation', () => {
    const named = texts.filter((t) => t.text.split(/[^a-z_]+/).some((word) => toolNames.has(word)));
    expect(named.map((t) => `${t.file}: ${t.text}`)).toEqual([]);
  });

  it('never hard-code a REST method and path: they mention the operation', () => {
    const named = texts.filter((t) => restAddress.test(t.text));
    expect(named.map((t) => `${t.file}: ${t.text}`)).toEqual([]);
  });

  it('keep tool names and REST addresses out of the catalogue of problem codes', () => {
    for (const [code, entry] of Object.entries(problemCatalogue)) {
      const words = entry.detail.split(/[^a-z_]+/);
      expect(
        words.filter((w) => toolNames.has(w)),
        code,
      ).toEqual([]);
      expect(restAddress.test(entry.detail), code).toBe(false);
    }
  });
});

describe('what depends on a thing', () => {
  it('is counted in words: "1 invoice line", "3 discount codes"', () => {
    expect(countInWords('invoiceLine', 1)).toBe('1 invoice line');
    expect(countInWords('discountCode', 3)).toBe('3 discount codes');
    for (const kind of Object.keys(dependentWords) as DependentKind[]) {
      for (const n of [1, 2]) expect(countInWords(kind, n)).toMatch(/^\d+ [a-z]+( [a-z]+)*$/);
    }
  });
});

describe('each transport names an operation its own way', () => {
  it('REST by method and path for every routed operation, MCP by tool name for every tool', () => {
    for (const route of routes) {
      const named = restOperationName(route.operation);
      expect(named, route.operation.name).toMatch(restAddress);
      expect(named).not.toContain(':');
    }
    for (const tool of tools) expect(toolOperationName(tool.operation)).toBe(tool.name);
  });
});

describe('a refusal through each transport', () => {
  let t: TestServer;
  let key: string;
  let workspaceId: string;

  beforeAll(async () => {
    t = await startTestServer();
    ({ workspaceId } = await t.workspace('Mentions', true));
    ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  });
  afterAll(async () => t?.close());

  async function mcpRefusal(name: string, args: Record<string, unknown>) {
    const client = await t.mcp(key);
    try {
      const result = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect(result.isError).toBe(true);
      return JSON.parse(result.content[0]!.text);
    } finally {
      await client.close();
    }
  }

  it('removing a published event: REST names PUT /events/{eventId}/status, MCP names set_event_status', async () => {
    const made = await t.api('/events', { key, method: 'POST', body: eventBody() });
    expect(made.status).toBe(201);
    const eventId = made.body.eventId;
    const published = await t.api(`/events/${eventId}/status`, {
      key,
      method: 'PUT',
      body: { status: 'published' },
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);

    const rest = expectProblem(
      await t.api(`/events/${eventId}`, { key, method: 'DELETE' }),
      409,
      'eventPublished',
    );
    expect(rest.detail).toContain('return it to draft with PUT /events/{eventId}/status first.');
    expect(rest.detail).not.toContain('set_event_status');
    expect(rest.error).toBe(rest.detail);

    const mcp = await mcpRefusal('delete_event', { eventId });
    expect(mcp.code).toBe('eventPublished');
    expect(mcp.detail).toContain('return it to draft with set_event_status first.');
    expect(mcp.detail).not.toMatch(restAddress);
  });

  it('removing a sold ticket type counts its tickets and what names it in words, on both transports', async () => {
    const ids = sampleIds(workspaceId);
    const summit = ids.event('summit');
    const standard = ids.ticketType('summit', 'standard');
    const rest = expectProblem(
      await t.api(`/events/${summit}/ticket-types/${standard}`, { key, method: 'DELETE' }),
      409,
      'inUse',
    );
    expect(rest.detail).toMatch(/is used by \d+ tickets?[,;]/);
    const internal = Object.keys(dependentWords).filter((k) => /[A-Z]/.test(k));
    for (const kind of internal) expect(rest.detail).not.toContain(kind);
    // The machine-readable list keeps the kinds' names.
    expect(rest.dependents[0].resource).toBe('ticket');
    const mcp = await mcpRefusal('delete_ticket_type', { eventId: summit, ticketTypeId: standard });
    expect(mcp.detail).toBe(rest.detail);
  });

  it('a field error that points to another operation: REST names its route, MCP its tool', async () => {
    const summit = sampleIds(workspaceId).event('summit');
    const stays = await t.api(`/events/${summit}/stays?status=requested&limit=1`, { key });
    expect(stays.status).toBe(200);
    const stay = stays.body.data[0];
    expect(stay, 'a requested stay in the sample').toBeDefined();
    const rest = expectProblem(
      await t.api(`/events/${summit}/stays/${stay.stayId}`, {
        key,
        method: 'PATCH',
        body: { hotel: 'Elsewhere' },
      }),
      400,
      'invalidRequest',
    );
    const assign = restOperationName({ name: 'assignStay', title: '' });
    expect(assign).toMatch(/^POST \/events\/\{eventId\}\/stays\/\{stayId\}/);
    expect(rest.errors).toEqual([
      { field: 'hotel', message: `A requested stay gets its hotel with ${assign}.` },
    ]);
    expect(rest.detail).toContain(assign);
    const mcp = await mcpRefusal('update_stay', { eventId: summit, stayId: stay.stayId, hotel: 'Elsewhere' });
    expect(mcp.errors).toEqual([
      { field: 'hotel', message: 'A requested stay gets its hotel with assign_stay.' },
    ]);
    expect(mcp.detail).toContain('assign_stay');
  });
});
