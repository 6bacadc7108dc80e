// The documents the API publishes beside its operations, under its base path: the OpenAPI
// document and the JSON Schema of the import's file. Their own router, so the routers of pages
// and sign-in can stay out of the API's way (src/app.ts besideApi).
import { Router } from '@koa/router';
import { importJsonSchema } from '../core/import/import-schema';
import { openApiDocument } from './openapi';
import { apiBase } from './route-table';

export function apiDocumentsRouter(): Router {
  const router = new Router();
  router.get(`${apiBase}/openapi.json`, (ctx) => {
    ctx.body = openApiDocument(ctx.state.origin);
  });
  router.get(`${apiBase}/import-schema.json`, (ctx) => {
    ctx.type = 'application/schema+json';
    ctx.body = importJsonSchema(ctx.state.origin);
  });
  return router;
}
