// Pages and documents anyone may read without a key: the OpenAPI document and the developer pages.
import { Router } from '@koa/router';
import { errorsPage, referencePage } from './developers';
import { openApiDocument } from './openapi';
import { apiBase } from './route-table';

export function docsRouter(): Router {
  const router = new Router();
  router.get(`${apiBase}/openapi.json`, (ctx) => {
    ctx.body = openApiDocument(ctx.state.origin);
  });
  router.get('/developers', (ctx) => {
    ctx.type = 'html';
    ctx.body = referencePage();
  });
  router.get('/developers/errors', (ctx) => {
    ctx.type = 'html';
    ctx.body = errorsPage();
  });
  return router;
}
