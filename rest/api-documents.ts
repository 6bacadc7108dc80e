// The documents the API publishes beside its operations, under its base path: the OpenAPI
// document and the JSON Schema of the import's file. Their own router, so the routers of pages
// and sign-in can stay out of the API's way (src/app.ts besideApi). Each is the same bytes for an
// origin, so it is serialised once and held (rest/held-file.ts): ETag, 304, compressed once.
import { Router } from '@koa/router';
import { importJsonSchema } from '../core/import';
import { answerHeldFile, type HeldFile, heldFile } from './held-file';
import { openApiDocument } from './openapi';
import { apiBase } from './route-table';

/** The document for the last origin asked for (one origin in practice: the public origin). */
function heldForOrigin(type: string, make: (origin: string) => unknown): (origin: string) => HeldFile {
  let last: { origin: string; file: HeldFile } | null = null;
  return (origin) => {
    if (last?.origin !== origin)
      last = { origin, file: heldFile(type, Buffer.from(JSON.stringify(make(origin)))) };
    return last.file;
  };
}

export function apiDocumentsRouter(): Router {
  const openApiFile = heldForOrigin('application/json', openApiDocument);
  const importSchemaFile = heldForOrigin('application/schema+json', importJsonSchema);
  const router = new Router();
  router.get(`${apiBase}/openapi.json`, (ctx) => answerHeldFile(ctx, openApiFile(ctx.state.origin)));
  router.get(`${apiBase}/import-schema.json`, (ctx) =>
    answerHeldFile(ctx, importSchemaFile(ctx.state.origin)),
  );
  return router;
}
