// The OpenAPI 3.1 document, generated from the route table and the operations' declarations and
// valibot schemas: named component schemas, a tag per area, every parameter and header described,
// an example for every body and answer, and each operation's problems linked to the catalogue.

import { exampleOf } from '../core/platform/docs/json-examples';
import { jsonSchemaOf, jsonSchemasOf } from '../core/platform/docs/json-schema';
import { problemsOf } from '../core/platform/pipeline/operation-problems';
import {
  type ProblemCode,
  problemBody,
  problemCatalogue,
  problem as problemOf,
} from '../core/platform/problems';
import { describeScope } from '../core/platform/scope-descriptions';
import { extensionScopes, scopes } from '../core/platform/scopes';
import { tesseraVersion } from '../core/platform/version';
import { components, requestItemSchemas } from './openapi-components';
import { extensionMarks } from './openapi-extension';
import { signingHeaders, webhookMessageSchema, webhooksOf } from './openapi-webhooks';
import { apiBase, openApiPath, pathParams, type Route } from './route-table';
import { areas, routes } from './routes';

type Json = Record<string, unknown>;

const schemaOf = (schema: Parameters<typeof jsonSchemaOf>[0]) => jsonSchemaOf(schema, components);
/** An input: its objects closed, as the server refuses a field they do not declare. */
const inputSchemaOf = (schema: Parameters<typeof jsonSchemaOf>[0]) =>
  jsonSchemaOf(schema, components, { input: true });

const problemSchema: Json = {
  type: 'object',
  description:
    'An RFC 9457 problem. Branch on `code`; show `detail` to people. Some codes carry extra members (scope, module, errors, etag, taken, sessions, ticketTypeId, reason, retryAfter).',
  required: ['type', 'title', 'status', 'detail', 'instance', 'code', 'traceId', 'error'],
  properties: {
    type: {
      type: 'string',
      format: 'uri',
      description: 'Link to the code in the error catalogue: {root}/developers/errors#<code>.',
    },
    title: { type: 'string', description: 'Short label of the code.' },
    status: { type: 'integer', description: 'The HTTP status.' },
    detail: { type: 'string', description: 'One sentence for a person.' },
    instance: { type: 'string', description: 'The request path.' },
    code: {
      type: 'string',
      enum: Object.keys(problemCatalogue),
      description: 'Stable code; once published, never renamed.',
    },
    traceId: { type: 'string', description: 'Quote it to support; also the X-Trace-Id header.' },
    error: { type: 'string', description: 'Copy of detail, kept in v1 for older flows.' },
    scope: { type: 'string', description: 'missingScope: the scope the key lacks.' },
    module: { type: 'string', description: 'moduleOff: the module switched off.' },
    errors: {
      type: 'array',
      description:
        'invalidRequest and invalidBody: each field problem ({ field, message }), a field the operation does not declare included; invalid: each attendee detail ({ attendee, field, code }).',
      items: {
        type: 'object',
        properties: {
          field: { type: 'string', description: 'The field, dotted (attendees.0.email).' },
          message: { type: 'string', description: 'What is wrong with it.' },
          attendee: { type: 'integer', description: 'invalid: the attendee, counted from 0.' },
          code: {
            type: 'string',
            enum: ['required', 'tooLong', 'notEmail', 'notOption'],
            description: 'invalid: what is wrong.',
          },
        },
      },
    },
    etag: { type: 'string', description: 'preconditionFailed: the current entity tag.' },
    taken: { type: 'integer', description: 'capacityBelowTaken: places taken (or people inside a door).' },
    orderStatus: {
      type: 'string',
      description: 'orderNotAwaitingPayment, orderNotPaid, orderNotRequested: the status the order is in.',
    },
    sponsorCount: { type: 'integer', description: 'levelInUse: how many sponsors have the level.' },
    leadCount: { type: 'integer', description: 'sponsorHasLeads: how many leads the sponsor has.' },
    currentStatus: { type: 'string', description: 'statusNotAllowed: the status the resource is in.' },
    dependents: {
      type: 'array',
      description: 'inUse: what depends on the resource, by kind: how many, and the first ids.',
      items: {
        type: 'object',
        properties: {
          resource: { type: 'string', description: 'The kind of record (session, door, order, scan, ...).' },
          count: { type: 'integer', description: 'How many depend on it.' },
          ids: { type: 'array', items: { type: 'string' }, description: 'The first 20 of their ids.' },
        },
      },
    },
    sessions: {
      type: 'array',
      description: 'clash: the sessions in the way.',
      items: {
        type: 'object',
        properties: {
          sessionId: { type: 'string', format: 'uuid' },
          title: { type: 'string' },
          startsUtc: { type: 'string', format: 'date-time' },
          endsUtc: { type: 'string', format: 'date-time' },
        },
      },
    },
    allowedStatuses: {
      type: 'array',
      items: { type: 'string' },
      description: 'statusNotAllowed: the statuses it may move to from there, where a move was asked for.',
    },
    sessionId: {
      type: 'string',
      format: 'uuid',
      description: 'sessionPublished: the published session the submission became.',
    },
    ticketTypeId: { type: 'string', format: 'uuid', description: 'soldOut, unknownTicket: the ticket type.' },
    memberId: {
      type: 'string',
      format: 'uuid',
      description: 'alreadyMember: the membership that address holds.',
    },
    shiftId: {
      type: 'string',
      format: 'uuid',
      description: 'shiftFull: the full shift; shiftClash: the shift at the same time.',
    },
    certificateId: {
      type: 'string',
      format: 'uuid',
      description: 'certificateExists: the certificate the attendee already holds.',
    },
    reason: {
      type: 'string',
      description: 'registrationRefused: why (addOnSoldOut, maxPerOrder, eventEnded, retired, ...).',
    },
    retryAfter: { type: 'integer', description: 'Seconds to wait (also the Retry-After header).' },
    encoding: {
      type: 'string',
      description: 'unsupportedEncoding: the Content-Encoding sent (x-tessera-extension).',
    },
    accepted: {
      type: 'string',
      description:
        'unsupportedEncoding: the codings a body may have, as the Accept-Encoding header lists them.',
    },
  },
};

/** What each scope permits, in the API's words; the scopes this service adds are marked. */
function scopeTable(): string {
  const rows = scopes.map((scope) => {
    const { area, meaning } = describeScope(scope);
    const mark = extensionScopes.includes(scope) ? ' *(Tessera extension)*' : '';
    return `| \`${scope}\` | ${area}: ${meaning}${mark} |`;
  });
  return [
    'A key does what its scopes permit; a write scope includes the read of its area.',
    '',
    '| Scope | Permits |',
    '|---|---|',
    ...rows,
  ].join('\n');
}

/** Headers and parameters every operation shares, described once and referred to. */
const sharedHeaders: Json = {
  RateLimit: {
    schema: { type: 'string' },
    description:
      'Calls left in the window and seconds until it resets (IETF httpapi draft): "default";r=599;t=42',
  },
  RateLimitPolicy: {
    schema: { type: 'string' },
    description: 'The key\'s limit and window: "default";q=600;w=60',
  },
  TraceId: { schema: { type: 'string' }, description: 'Identifies this request; quote it to support.' },
  RetryAfter: { schema: { type: 'integer' }, description: 'Seconds to wait before sending again.' },
  AcceptEncoding: {
    schema: { type: 'string' },
    description:
      'The content codings a request body may have besides identity (RFC 9110 §15.5.16): gzip, deflate, br.',
  },
  ETag: {
    schema: { type: 'string' },
    description: 'Entity tag of this representation, as a GET of it gives; send it as If-Match to change it.',
  },
  Location: {
    schema: { type: 'string' },
    description: 'The address of what was made (the subscription to DELETE).',
  },
  IdempotentReplayed: {
    schema: { type: 'string', enum: ['true'] },
    description: 'Present on the stored first answer to a retry with the same Idempotency-Key.',
  },
};
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const rateHeaders: Json = {
  RateLimit: header('RateLimit'),
  'RateLimit-Policy': header('RateLimitPolicy'),
  'X-Trace-Id': header('TraceId'),
};
const retryAfter = { 'Retry-After': header('RetryAfter') };
const acceptEncoding = { 'Accept-Encoding': header('AcceptEncoding') };

const sharedParameters: Json = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      '1 to 255 visible ASCII characters (a UUID is suitable). A retry with the same key within 24 hours gets the first answer, marked Idempotent-Replayed: true.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
    example: '0b7c9f6e-5a4d-4c1b-9e2f-7a3d8c6b5e41',
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The ETag read before: when the resource is unchanged the answer is 304 with no body.',
    schema: { type: 'string' },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      'The ETag read before: when the resource changed since, the change is refused with 412 preconditionFailed.',
    schema: { type: 'string' },
  },
};
const parameter = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** One example of every problem code an operation answers, which its problem answers refer to. */
function problemExamples(origin: string): Json {
  const answered = new Set<ProblemCode>([
    ...parserProblems,
    ...bodyProblems,
    ...routes.flatMap((r) => [...problemsOf(r.operation)]),
  ]);
  return Object.fromEntries(
    (Object.keys(problemCatalogue) as ProblemCode[])
      .filter((code) => answered.has(code))
      .map((code) => [
        code,
        {
          summary: `${code}: ${problemCatalogue[code].title}`,
          value: problemBody(problemOf(code), {
            root: origin,
            instance: `${apiBase}/events/0196ab12-3c4d-7e5f-8a6b-7c8d9e0f1a2b`,
            traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
          }),
        },
      ]),
  );
}

/** What the body reader refuses on any request with a body (core/platform/request-body.ts). */
const bodyProblems: readonly ProblemCode[] = ['payloadTooLarge', 'unsupportedEncoding'];

/** What Node's HTTP parser refuses before any operation runs (src/http/client-errors.ts). */
const parserProblems: readonly ProblemCode[] = ['invalidRequest', 'requestTimeout', 'headersTooLarge'];

/**
 * The operation's problems (its declaration), the parser's refusals any request can meet and the
 * body reader's refusals (size, content coding) REST adds to writes, status by status.
 */
function problemResponses(route: Route): Json {
  const codes = new Set<ProblemCode>([...problemsOf(route.operation), ...parserProblems]);
  if (route.method !== 'GET') for (const code of bodyProblems) codes.add(code);
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of codes) {
    const status = problemCatalogue[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Json = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const links = list.map((code) => `[${code}](/developers/errors#${code})`).join(', ');
    responses[String(status)] = {
      description: `Problem: ${links}.`,
      headers: {
        ...rateHeaders,
        ...(status === 429 || list.includes('idempotencyKeyInUse') ? retryAfter : {}),
        ...(list.includes('unsupportedEncoding') ? acceptEncoding : {}),
      },
      content: {
        'application/problem+json': {
          schema: { $ref: '#/components/schemas/Problem' },
          examples: Object.fromEntries(list.map((code) => [code, { $ref: `#/components/examples/${code}` }])),
        },
      },
    };
  }
  return responses;
}

/**
 * The path an operation is documented at: the route's own, with the API's own parameter names.
 * POST /hooks/{eventType} and GET or DELETE /hooks/{hookId} are two templates that differ only in
 * their parameter's name; OpenAPI asks for one path item there, but the API names them so (spec
 * "Automation subscriptions"), and a merged name (eventTypeOrHookId) is a path nobody calls. The
 * router tells them apart by method.
 */
export function documentedPath(route: Route): string {
  return openApiPath(route.path);
}

/** An answer that is a file comes as an attachment named for its event, dataset and day. */
const fileDisposition: Json = {
  description: 'attachment; filename="<event slug>-<dataset>-<YYYY-MM-DD>.<format>"',
  schema: { type: 'string' },
};

/** The file formats besides JSON an operation answers (chosen by its format field), as text. */
function fileContent(operation: Route['operation']): Json {
  const formats = Object.entries(operation.file?.formats ?? {}).filter(
    ([, type]) => type !== 'application/json',
  );
  if (operation.file?.document)
    return Object.fromEntries(
      formats.map(([format, type]) => [
        type,
        {
          schema: {
            type: 'string',
            format: 'binary',
            contentMediaType: type,
            description: `The ${format} file.`,
          },
        },
      ]),
    );
  return Object.fromEntries(
    formats.map(([format, type]) => [
      type,
      { schema: { type: 'string', description: `The ${format} file (format=${format}).` } },
    ]),
  );
}

/** The operation's success answer, with its headers and example, and the problems it declares. */
function responsesOf(route: Route, named: Record<string, Json>): Json {
  const { operation } = route;
  const output = schemaOf(operation.output);
  const successHeaders: Json = { ...rateHeaders };
  if (operation.etag) successHeaders.ETag = header('ETag');
  if (operation.idempotent) successHeaders['Idempotent-Replayed'] = header('IdempotentReplayed');
  if (route.location) successHeaders.Location = header('Location');
  if (operation.file)
    successHeaders['Content-Disposition'] = operation.file.fileName
      ? { ...fileDisposition, description: `attachment; filename="${operation.file.fileName}"` }
      : fileDisposition;
  const status = route.status ?? 200;
  return {
    [String(status)]: {
      description: operation.title,
      headers: successHeaders,
      ...(status === 204
        ? {}
        : {
            // A whole file (a PDF) is answered as its bytes only; its output is what MCP is told of it.
            content: operation.file?.document
              ? fileContent(operation)
              : {
                  'application/json': { schema: output, example: exampleOf(output, named) },
                  ...fileContent(operation),
                },
          }),
    },
    ...problemResponses(route),
  };
}

function operationObject(route: Route, named: Record<string, Json>): Json {
  const { operation } = route;
  const input = inputSchemaOf(operation.input) as { properties?: Record<string, Json>; required?: string[] };
  const properties = input.properties ?? {};
  const required = new Set(input.required ?? []);
  const inPath = new Set(pathParams(route.path));
  const hasBody = route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT';
  const parameters: Json[] = [];
  const bodyProperties: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const { description, ...rest } = schema as Json;
    const described = { name, description, schema: rest, example: exampleOf(schema, named, name) };
    if (inPath.has(name)) parameters.push({ ...described, in: 'path', required: true });
    else if (hasBody) bodyProperties[name] = schema;
    else parameters.push({ ...described, in: 'query', required: required.has(name) });
  }
  if (operation.idempotent) parameters.push(parameter('IdempotencyKey'));
  const revalidates = operation.etag && operation.effect === 'read';
  if (revalidates) parameters.push(parameter('IfNoneMatch'));
  if (operation.ifMatch) parameters.push(parameter('IfMatch'));

  const responses = responsesOf(route, named);
  if (revalidates) responses['304'] = { description: 'Not modified: If-None-Match named the current ETag.' };

  const op: Json = {
    operationId: operation.name,
    summary: operation.title,
    description: operation.description,
    tags: [route.tag],
    'x-scope': operation.scope,
    // Versioning item 7: keys made before the date need only the older scope.
    ...(operation.olderKeys
      ? {
          'x-scope-older-keys': {
            madeBefore: operation.olderKeys.madeBefore,
            scope: operation.olderKeys.scope,
          },
        }
      : {}),
    ...(operation.extension ? extensionMarks(operation.description) : {}),
    ...(operation.module ? { 'x-module': operation.module } : {}),
    security: [{ bearer: [] }, { apiKeyHeader: [] }],
    parameters,
    responses,
  };
  if (hasBody) {
    const bodyRequired = [...required].filter((n) => !inPath.has(n));
    const body: Json = {
      type: 'object',
      properties: bodyProperties,
      ...(bodyRequired.length ? { required: bodyRequired } : {}),
      additionalProperties: false,
    };
    const example = exampleOf(body, named);
    const media =
      route.method === 'PATCH' ? ['application/merge-patch+json', 'application/json'] : ['application/json'];
    op.requestBody = {
      required: bodyRequired.length > 0,
      content: Object.fromEntries(media.map((type) => [type, { schema: body, example }])),
    };
  }
  return op;
}

/** The document for an origin, built anew: rest/api-documents.ts holds it, serialised, per origin. */
export function openApiDocument(origin: string): Json {
  const inputs = jsonSchemasOf(components, { input: true });
  const named = {
    ...jsonSchemasOf(components),
    ...Object.fromEntries(Object.keys(requestItemSchemas).map((name) => [name, inputs[name]!])),
  };
  const schemas: Record<string, Json> = {
    ...named,
    WebhookMessage: webhookMessageSchema(),
    Problem: problemSchema,
  };
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const path = documentedPath(route);
    paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: operationObject(route, schemas) };
  }
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Tessera API',
      version: tesseraVersion,
      summary: "The JSON REST API for one workspace's events.",
      description: `Every call carries an API key: \`Authorization: Bearer abk_…\` (or \`X-Api-Key\`). A key reaches one workspace and does what its scopes allow. Refusals are \`application/problem+json\`: branch on \`code\` (see the [error catalogue](/developers/errors)). A body field, nested field, query parameter or tool argument an operation does not declare is refused with \`400 invalidRequest\`, named in \`errors\` with the field most likely meant (\`capcity: Not a field; did you mean capacity?\`). The same operations are MCP tools at \`/mcp\`. Start with [the first five minutes](/developers/start). To load events from another system, see the [import format](/api/v1/import-schema.json) (JSON Schema, for \`tessera import\`).`,
      contact: { name: 'Tessera developers', url: `${origin}/developers` },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Tessera' },
    },
    servers: [{ url: `${origin}${apiBase}`, description: 'This service.' }],
    security: [{ bearer: [] }, { apiKeyHeader: [] }],
    tags: Object.values(areas).map((a) => ({ name: a.name, description: a.description })),
    paths,
    webhooks: webhooksOf(schemas),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: `The API key: abk_ + 12-character prefix + _ + 43-character secret.\n\n${scopeTable()}`,
        },
        apiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Api-Key',
          description: 'The same key, for tools that can only fill a named header.',
        },
      },
      schemas,
      headers: sharedHeaders,
      parameters: { ...sharedParameters, ...signingHeaders },
      examples: problemExamples(origin),
    },
  };
  return document;
}
