import * as v from 'valibot';
import { defineOperation } from '../platform/operation';
import { uuid } from '../platform/schemas';
import { loadPass } from './load-pass';
import { passSchema, passViews } from './pass-view';

export const getPass = defineOperation({
  name: 'getPass',
  title: 'Get a pass',
  description:
    'Returns one season pass or bundle with price, capacity and what is sold: sold (holders whose order is paid or free), waiting (payment under way), left, and per event it admits to, first first: holders, optedOut, and heldSeats (the seats that event holds for holders: capacity less those who opted out of it). Answers 404 notFound for an id not in the workspace. Over REST it carries an ETag for If-None-Match. Needs tickets:read.',
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
