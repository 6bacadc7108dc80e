// One HTTPS request to the test server exactly as given, Host header and request target included
// (fetch sends its own Host whatever it is told), as `curl -H 'Host: …'` sends it. Redirects are
// not followed.
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import type { TestServer } from './server';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export function rawHttps(
  t: TestServer,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      t.server.origin,
      {
        // As given: an absolute target (GET https://host/path) is sent as one too.
        path,
        method: init.method ?? 'GET',
        ca: readFileSync(t.server.certFile!),
        servername: 'localhost',
        headers: init.headers,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The cookies an answer sets, as a Cookie header sends them back. */
export const cookiesOf = (answer: RawAnswer): string =>
  (answer.headers['set-cookie'] ?? []).map((line) => line.split(';')[0]).join('; ');
