// What a receiver does with signed deliveries, in one place for the delivery tests: check each
// signature with the standardwebhooks package under the endpoint's secret, and each body against
// its type's schema as GET /webhooks/event-types publishes it. Answers the verified bodies.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import type { Received } from './receiver';
import type { TestServer } from './server';

export async function verifiedBodies(
  t: TestServer,
  key: string,
  secret: string,
  received: readonly Received[],
): Promise<any[]> {
  const catalogue = (await t.api('/webhooks/event-types', { key })).body.data as {
    type: string;
    schema: object;
  }[];
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const validators = new Map(catalogue.map((c) => [c.type, ajv.compile(c.schema)]));
  return received.map((request) => {
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
    const body = new Webhook(secret).verify(request.body, headers) as { type: string };
    const validate = validators.get(body.type)!;
    expect(validate(body), `${body.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
    return body;
  });
}
