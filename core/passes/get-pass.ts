import * as v from 'valibot';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { loadPass } from './load-pass';
import { passSchema, passViews } from './pass-view';

export const getPass = defineOperation({
  name: 'getPass',
  title: 'Get a pass',
  description:
    'Returns one season pass or bundle with price, capacity, sales and per-event holders. Needs tickets:read.',
  scope: 'tickets:read',
  effect: 'read',
  problems: ['notFound'],
  etag: true,
  input: v.object({ passId: uuid('The pass id.') }),
  output: passSchema,
  async handler(ctx, input) {
    const row = await loadPass(ctx, input.passId);
    return (await passViews(ctx, [row])).get(row.id)!;
  },
});
