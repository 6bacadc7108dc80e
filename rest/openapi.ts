// The OpenAPI 3.1 document, generated from the route table and the operations' valibot schemas.
import { jsonSchemaOf as schemaOf } from '../core/platform/json-schema';
import { problemsOf } from '../core/platform/operation-problems';
import { type ProblemCode, problemCatalogue } from '../core/platform/problems';
import { apiBase, openApiPath, pathParams, type Route } from './route-table';
import { routes } from './routes';

type Json = Record<string, unknown>;

/** The operation's problems (its declaration), and the body limit REST adds to writes. */
function problemResponses(route: Route): Json {
  const codes: ProblemCode[] = [...problemsOf(route.operation)];
  if (route.method !== 'GET') codes.push('payloadTooLarge');
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const entry = problemCatalogue[code];
    byStatus.set(entry.status, [...(byStatus.get(entry.status) ?? []), code]);
  }
  const responses: Json = {};
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = {
      description: `Problem: ${codes.join(', ')}`,
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      ...(status === 429 || codes.includes('idempotencyKeyInUse')
        ? { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } } }
        : {}),
    };
  }
  return responses;
}

function operationObject(route: Route): Json {
  const input = schemaOf(route.operation.input) as { properties?: Record<string, Json>; required?: string[] };
  const properties = input.properties ?? {};
  const required = new Set(input.required ?? []);
  const inPath = new Set(pathParams(route.path));
  const hasBody = route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT';
  const parameters: Json[] = [];
  const bodyProperties: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const { description, ...rest } = schema as Json;
    if (inPath.has(name)) parameters.push({ name, in: 'path', required: true, description, schema: rest });
    else if (hasBody) bodyProperties[name] = schema;
    else parameters.push({ name, in: 'query', required: required.has(name), description, schema: rest });
  }
  if (route.operation.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        '1 to 255 visible ASCII characters; a retry with the same key gets the first answer for 24 hours.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  if (route.operation.etag)
    parameters.push({ name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } });
  if (route.operation.ifMatch)
    parameters.push({ name: 'If-Match', in: 'header', required: false, schema: { type: 'string' } });

  const rateHeaders = {
    RateLimit: {
      schema: { type: 'string' },
      description: 'Calls left and seconds to reset: "default";r=599;t=42',
    },
    'RateLimit-Policy': { schema: { type: 'string' }, description: 'The key\'s limit: "default";q=600;w=60' },
    'X-Trace-Id': { schema: { type: 'string' }, description: 'Quote it to support.' },
  };
  const success: Json = {
    description: route.operation.title,
    headers: { ...rateHeaders, ...(route.operation.etag ? { ETag: { schema: { type: 'string' } } } : {}) },
    content: { 'application/json': { schema: schemaOf(route.operation.output) } },
  };
  const responses: Json = { [String(route.status ?? 200)]: success, ...problemResponses(route) };
  if (route.operation.etag) responses['304'] = { description: 'Not modified (If-None-Match matched).' };

  const op: Json = {
    operationId: route.operation.name,
    summary: route.operation.title,
    description: route.operation.description,
    tags: [route.path.split('/')[1] ?? 'workspace'],
    'x-scope': route.operation.scope,
    ...(route.operation.extension ? { 'x-tessera-extension': true } : {}),
    parameters,
    responses,
  };
  if (hasBody) {
    const bodyRequired = [...required].filter((n) => !inPath.has(n));
    op.requestBody = {
      required: bodyRequired.length > 0,
      content: {
        [route.method === 'PATCH' ? 'application/merge-patch+json' : 'application/json']: {
          schema: {
            type: 'object',
            properties: bodyProperties,
            ...(bodyRequired.length ? { required: bodyRequired } : {}),
          },
        },
        ...(route.method === 'PATCH'
          ? { 'application/json': { schema: { type: 'object', properties: bodyProperties } } }
          : {}),
      },
    };
  }
  return op;
}

export function openApiDocument(origin: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: operationObject(route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tessera API',
      version: '1.0.0',
      description:
        "The JSON REST API for one workspace's events. Every call carries an API key (Authorization: Bearer, or X-Api-Key). Refusals are application/problem+json; branch on `code`.",
    },
    servers: [{ url: `${origin}${apiBase}` }],
    security: [{ bearer: [] }, { apiKeyHeader: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'abk_ + 12-character prefix + _ + 43-character secret',
        },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      },
      schemas: {
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'detail', 'instance', 'code', 'traceId', 'error'],
          properties: {
            type: { type: 'string', format: 'uri', description: '{root}/developers/errors#<code>' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            instance: { type: 'string' },
            code: { type: 'string', enum: Object.keys(problemCatalogue) },
            traceId: { type: 'string' },
            error: { type: 'string', description: 'Copy of detail, kept in v1.' },
            scope: { type: 'string' },
            module: { type: 'string' },
            errors: { type: 'array', items: { type: 'object' } },
            etag: { type: 'string' },
            taken: { type: 'integer' },
            sessions: { type: 'array', items: { type: 'object' } },
            ticketTypeId: { type: 'string', format: 'uuid' },
            reason: { type: 'string' },
            retryAfter: { type: 'integer', description: 'Seconds to wait (also the Retry-After header).' },
          },
        },
      },
    },
  };
}
