// /developers: the API reference, rendered in the browser by Redoc from the OpenAPI document.
// Redoc's standalone bundle is served from its npm package (/developers/assets/redoc.js), never
// from a CDN: the reference works on a machine with no other network.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { html, trusted } from './html';
import { page } from './layout';

const require = createRequire(import.meta.url);
let bundle: Buffer | null = null;

/** The Redoc standalone bundle, read once from the installed package. */
export function redocBundle(): Buffer {
  bundle ??= readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'));
  return bundle;
}

export function referencePage(): string {
  return page({
    title: 'Tessera API reference',
    section: 'reference',
    head: trusted('<style>redoc{display:block}</style>'),
    body: html`<redoc spec-url="/api/v1/openapi.json" scroll-y-offset="header.top" expand-responses="200,201"
required-props-first="true" sort-required-props-first="true" hide-download-button="false"
theme='${JSON.stringify({ colors: { primary: { main: '#3b5bdb' } }, typography: { fontFamily: 'system-ui, sans-serif', headings: { fontFamily: 'system-ui, sans-serif' } } })}'></redoc>
<noscript><main class="prose"><p>The reference needs JavaScript. The same content is in
<a href="/api/v1/openapi.json">the OpenAPI document</a>.</p></main></noscript>
<script src="/developers/assets/redoc.js"></script>`,
  });
}
