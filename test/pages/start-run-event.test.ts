// The start page shows each area Tessera lets an organiser run beyond the API's reads (issue 25,
// item 9): one call and one assistant request each, and every call it shows is a real operation
// of the served OpenAPI document, marked as an extension.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let page: string;
let doc: any;

beforeAll(async () => {
  t = await startTestServer();
  page = await (await t.fetch(`${t.server.publicOrigin}/developers/start`)).text();
  doc = (await t.api('//api/v1/openapi.json')).body;
});
afterAll(async () => t.close());

/** The OpenAPI template a concrete path with $VARIABLES matches, if any. */
function templateOf(path: string): string | undefined {
  const segments = path.split('/');
  return Object.keys(doc.paths).find((template) => {
    const parts = template.split('/');
    return (
      parts.length === segments.length &&
      parts.every((p, i) => p === segments[i] || (p.startsWith('{') && segments[i]!.startsWith('$')))
    );
  });
}

describe('the start page: run the event', () => {
  it('shows a call and an assistant request for each area run through the extensions', () => {
    const part = page.slice(page.indexOf('6. Run the event'));
    for (const area of [
      'Sponsors and leads',
      'Crew and shifts',
      'Surveys and ratings',
      'Communities and members',
      'Share kit',
      'Call for speakers',
      'Payments and invoices',
      'Speakers and crew logistics',
      'Certificates and content',
      'Removing what was made',
    ])
      expect(part, area).toContain(`<h3>${area}</h3>`);
    expect(part.match(/Or ask an assistant/g)).toHaveLength(10);
  });

  it('shows only calls the API has, each with its method an operation marked as an extension', () => {
    const part = page.slice(page.indexOf('6. Run the event'), page.indexOf('<h2>Assistants</h2>'));
    const calls = [...part.matchAll(/-X (\w+)[^<]*?\/api\/v1(\/[^\s<]+)<\/code>/g)].map((m) => ({
      method: m[1]!.toLowerCase(),
      path: m[2]!,
    }));
    expect(calls).toHaveLength(10);
    for (const { method, path } of calls) {
      const template = templateOf(path);
      expect(template, path).toBeDefined();
      expect(doc.paths[template!][method]?.['x-tessera-extension'], `${method} ${path}`).toBe(true);
    }
  });
});
