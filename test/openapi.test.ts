// The OpenAPI 3.1 document and the table test: every operation has a scope, a description, a
// REST route, an MCP tool and an OpenAPI entry, all derived from the one declaration.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyOperation } from '../core/platform/pipeline/operation';
import { problemCatalogue } from '../core/platform/problems';
import { isScope } from '../core/platform/scopes';
import { tools } from '../mcp/tools';
import { documentedPath } from '../rest/openapi';
import { extensionNote } from '../rest/openapi-extension';
import { pathParams } from '../rest/route-table';
import { routes } from '../rest/routes';
import { commandOperations } from '../src/declarations';
import { startTestServer, type TestServer } from './support/server';

let t: TestServer;
let doc: any;

beforeAll(async () => {
  t = await startTestServer();
  const res = await t.api('/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(async () => t.close());

/** Every operation the core areas export (core/<area>/index.ts), found by its shape. */
async function coreOperations(): Promise<AnyOperation[]> {
  const coreDir = join(import.meta.dirname, '..', 'core');
  const found: AnyOperation[] = [];
  for (const area of readdirSync(coreDir)) {
    const index = join(coreDir, area, 'index.ts');
    if (!existsSync(index)) continue;
    const module = (await import(index)) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      const op = value as Partial<AnyOperation>;
      if (op && typeof op === 'object' && typeof op.handler === 'function' && typeof op.name === 'string') {
        found.push(op as AnyOperation);
      }
    }
  }
  return found;
}

describe('the OpenAPI document', () => {
  it('is served without a key at /api/v1/openapi.json as OpenAPI 3.1', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.servers[0].url).toBe(`${t.server.origin}/api/v1`);
  });

  it('validates with a standard OpenAPI validator', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    // The validator is strict enough to notice a broken copy.
    const broken = structuredClone(doc);
    delete broken.info;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('has an entry for every route of the route table, with its path parameters', () => {
    for (const route of routes) {
      const entry = doc.paths[documentedPath(route)]?.[route.method.toLowerCase()];
      expect(entry, `${route.method} ${route.path}`).toBeDefined();
      expect(entry.operationId).toBe(route.operation.name);
      expect(entry['x-scope']).toBe(route.operation.scope);
      const inPath = entry.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name);
      expect(inPath.sort()).toEqual(pathParams(documentedPath(route).replace(/\{(\w+)\}/g, ':$1')).sort());
      expect(entry.responses[String(route.status ?? 200)]).toBeDefined();
    }
  });

  it('documents the hook paths as the API names them: POST /hooks/{eventType}, GET and DELETE /hooks/{hookId}', () => {
    expect(doc.paths['/hooks/{eventTypeOrHookId}']).toBeUndefined();
    expect(Object.keys(doc.paths['/hooks/{eventType}'])).toEqual(['post']);
    expect(doc.paths['/hooks/{eventType}'].post.operationId).toBe('createHookForType');
    const eventType = doc.paths['/hooks/{eventType}'].post.parameters.find((p: any) => p.in === 'path');
    expect(eventType.name).toBe('eventType');
    expect(eventType.schema.enum).toContain('order.paid');
    expect(Object.keys(doc.paths['/hooks/{hookId}']).sort()).toEqual(['delete', 'get']);
    expect(doc.paths['/hooks/{hookId}'].get.operationId).toBe('getHook');
    const hookId = doc.paths['/hooks/{hookId}'].delete.parameters.find((p: any) => p.in === 'path');
    expect(hookId.name).toBe('hookId');
  });

  it('has no operation that the route table does not have', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const routed = routes.map((r) => `${r.method} ${documentedPath(r)}`);
    expect(documented.sort()).toEqual(routed.sort());
  });

  it('documents the problems every operation may answer, as application/problem+json', () => {
    for (const route of routes) {
      const responses = doc.paths[documentedPath(route)][route.method.toLowerCase()].responses;
      const statuses = route.operation.scope === 'any' ? ['401', '429'] : ['401', '403', '429'];
      for (const status of statuses) {
        expect(
          responses[status]?.content?.['application/problem+json'],
          `${route.path} ${status}`,
        ).toBeDefined();
      }
      expect(responses['429'].headers['Retry-After']).toBeDefined();
    }
    expect(doc.components.schemas.Problem.properties.code.enum.sort()).toEqual(
      Object.keys(problemCatalogue).sort(),
    );
  });

  it('documents the Idempotency-Key header on idempotent routes and ETag headers on conditional ones', () => {
    const answersWithTag = (method: string, path: string) =>
      routes.find((r) => r.method === method && r.path === path)?.operation.etag;
    for (const [method, path] of [
      ['POST', '/events'],
      ['PATCH', '/events/:eventId'],
      ['PUT', '/events/:eventId/status'],
      ['PATCH', '/webhooks/:webhookId'],
    ])
      expect(answersWithTag(method!, path!), `${method} ${path}`).toBe(true);
    for (const route of routes) {
      const entry = doc.paths[documentedPath(route)][route.method.toLowerCase()];
      const headers = entry.parameters
        .map((p: any) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p))
        .filter((p: any) => p.in === 'header')
        .map((p: any) => p.name);
      expect(headers.includes('Idempotency-Key'), route.path).toBe(Boolean(route.operation.idempotent));
      // A write answering a conditional resource carries its ETag too; only a read takes If-None-Match.
      const { etag, effect } = route.operation;
      expect(headers.includes('If-None-Match'), route.path).toBe(Boolean(etag) && effect === 'read');
      const success = entry.responses[String(route.status ?? 200)];
      expect(Boolean(success.headers?.ETag), `${route.method} ${route.path} ETag`).toBe(Boolean(etag));
      expect(headers.includes('If-Match'), route.path).toBe(Boolean(route.operation.ifMatch));
    }
  });

  it('documents both ways to send the key', () => {
    const schemes = doc.components.securitySchemes;
    expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
  });
});

describe('the operation table', () => {
  it('gives every operation a scope, a description, a REST route, an MCP tool and an OpenAPI entry', async () => {
    const operations = await coreOperations();
    expect(operations.length).toBeGreaterThanOrEqual(6);
    for (const op of operations) {
      // The operator's operations are the command line's alone: no route, no tool (src/declarations.ts).
      if (op.operator) {
        expect(commandOperations, `${op.name} is a command's`).toContain(op);
        continue;
      }
      expect(op.scope === 'any' || isScope(op.scope), `${op.name} scope`).toBe(true);
      expect(op.description.length, `${op.name} description`).toBeGreaterThan(40);
      expect(op.title.length, `${op.name} title`).toBeGreaterThan(0);
      expect(['read', 'write', 'destructive']).toContain(op.effect);
      const route = routes.find((r) => r.operation === op);
      expect(route, `${op.name} has a route`).toBeDefined();
      expect(
        tools.find((x) => x.operation === op),
        `${op.name} has a tool`,
      ).toBeDefined();
      const entry = doc.paths[documentedPath(route!)]?.[route!.method.toLowerCase()];
      expect(entry?.operationId, `${op.name} in OpenAPI`).toBe(op.name);
      expect(entry.description).toBe(op.extension ? `${op.description}\n\n${extensionNote}` : op.description);
      if (op.extension)
        expect(entry['x-badges'], `${op.name} badge`).toEqual([
          expect.objectContaining({ name: 'Extension' }),
        ]);
    }
  });

  it('routes and tools only operations of core, each once', async () => {
    const operations = new Set(await coreOperations());
    for (const route of routes) expect(operations.has(route.operation), route.path).toBe(true);
    for (const tool of tools) expect(operations.has(tool.operation), tool.name).toBe(true);
    const toolNames = tools.map((x) => x.name);
    expect(new Set(toolNames).size).toBe(toolNames.length);
    const routeKeys = routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(routeKeys).size).toBe(routeKeys.length);
  });

  it('names each tool as the snake_case form of its operation, and marks reads read-only', () => {
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(tool.name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())).toBe(tool.operation.name);
      expect(tool.hints.readOnlyHint).toBe(tool.operation.effect === 'read');
      expect(tool.hints.destructiveHint).toBe(tool.operation.effect === 'destructive');
    }
  });
});
