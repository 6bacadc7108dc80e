// /developers: the API reference, rendered in the browser by Scalar from the OpenAPI document, with
// code samples for every operation and a request a reader sends from the page with a key they type.
// Scalar's standalone bundle is served from its npm package (/developers/assets/scalar.js), never
// from a CDN, and everything that would reach Scalar's own services (fonts, telemetry, the agent,
// the request proxy) is switched off: the reference works on a machine with no other network.
import { demoKey } from '../../core/admin';
import { type HeldFile, heldFile } from '../held-file';
import { apiBase } from '../route-table';
import { html, trusted } from './html';
import { page } from './layout';
import { pageFiles } from './page-files';

let bundle: HeldFile | null = null;

/**
 * Scalar's standalone bundle (one IIFE: its only dynamic import loads `pluginUrls`, which this page
 * does not use, so none of the package's lazy chunks is ever asked for), read once.
 */
export function scalarBundle(): HeldFile {
  bundle ??= heldFile('application/javascript', pageFiles.read('scalar-standalone.js'));
  return bundle;
}

/** The bundle's address as the page names it: its version in the query, so a browser may keep it for good. */
export function scalarBundlePath(): string {
  return `/developers/assets/scalar.js?v=${scalarBundle().version}`;
}

/** The clients whose code samples each operation shows; Scalar hides every other one. */
const clients: Record<string, string[]> = {
  shell: ['curl'],
  js: ['fetch'],
  node: ['fetch'],
  python: ['requests'],
};

/** Every client Scalar generates (1.46 to 1.72), by target, so the list above can be turned into what to hide. */
const allClients: Record<string, string[]> = {
  c: ['libcurl'],
  clojure: ['clj_http'],
  csharp: ['httpclient', 'restsharp'],
  dart: ['http'],
  fsharp: ['httpclient'],
  go: ['native'],
  http: ['http1.1'],
  java: ['asynchttp', 'nethttp', 'okhttp', 'unirest'],
  js: ['axios', 'fetch', 'jquery', 'ofetch', 'xhr'],
  julia: ['http'],
  kotlin: ['okhttp'],
  node: ['axios', 'fetch', 'ofetch', 'undici'],
  objc: ['nsurlsession'],
  ocaml: ['cohttp'],
  php: ['curl', 'guzzle', 'laravel'],
  powershell: ['restmethod', 'webrequest'],
  python: ['python3', 'requests', 'aiohttp', 'httpx_sync', 'httpx_async'],
  r: ['httr2'],
  ruby: ['native'],
  rust: ['reqwest'],
  shell: ['curl', 'httpie', 'wget'],
  swift: ['nsurlsession'],
};

const hiddenClients = Object.fromEntries(
  Object.entries(allClients).map(([target, list]) => {
    const shown = clients[target] ?? [];
    return [target, shown.length ? list.filter((c) => !shown.includes(c)) : true];
  }),
);

// The site's own type and accent colour instead of Scalar's web fonts.
const customCss = `.scalar-app,.scalar-api-reference{--scalar-font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--scalar-font-code:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;--scalar-color-accent:#3b5bdb}`;

export function scalarConfiguration(): Record<string, unknown> {
  return {
    // The document's server is this service's origin, so a request sent from the page goes straight
    // to it (no proxyUrl: Scalar's hosted proxy is never asked).
    url: `${apiBase}/openapi.json`,
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    documentDownloadType: 'json',
    hideDarkModeToggle: true,
    forceDarkModeState: 'light',
    theme: 'default',
    hiddenClients,
    defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
    // The published demonstration key (read-only, in the README): a reader can try a call at once,
    // or type their own key over it. Kept in the page only; persistAuth stays off.
    authentication: {
      preferredSecurityScheme: 'bearer',
      securitySchemes: { bearer: { token: demoKey.key } },
    },
    persistAuth: false,
    // Its 'Open API Client' sends the reader to Scalar's hosted client, which cannot reach this service.
    hideClientButton: true,
    customCss,
  };
}

export function referencePage(): string {
  return page({
    title: 'Tessera API reference',
    section: 'reference',
    // The site header scrolls away here, so Scalar's sticky sidebar and mobile bar own the top edge
    // at every width (a sticky header's height changes when its links wrap on a phone).
    head: trusted('<style>header.top{position:static}</style>'),
    // Scalar renders its own <main> (with its sidebar and search) into the place of the script tag.
    body: html`<div id="reference">
<noscript><div class="prose"><p>The reference needs JavaScript. The same content is in
<a href="/api/v1/openapi.json">the OpenAPI document</a>.</p></div></noscript>
<script id="api-reference" type="application/json" data-configuration="${JSON.stringify(scalarConfiguration())}"></script>
</div>
<script src="${scalarBundlePath()}"></script>`,
  });
}
