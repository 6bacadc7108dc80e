#!/usr/bin/env node
// Runs the service from its JavaScript bundle (dist/tessera.mjs, made by `npm run build`): in a
// checkout with the development dependencies it is rebuilt first when any source is newer
// (bin/bundle.mjs), so there is no build step to forget; an installed package without them runs
// the bundle it came with. TESSERA_FROM_SOURCE=1 runs the TypeScript sources through tsx instead
// (a development dependency; slower to start; for a debugger that should see the sources as they
// are), with the scanner page's script still served from dist/.
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// `tessera import` checks its file an order at a time: objects by the hundred thousand that live
// for one order. Run from the bundle, V8's allocation-site pretenuring (its guess that what a place
// in the code makes lives long) makes them in the old generation instead, and the check took three
// times as long: 2.3 s against 0.7 s of CPU for 50,000 attendees. Off for that command, before
// anything is loaded (set later, the guesses are made already).
if (process.argv.slice(2).find((arg) => !arg.startsWith('-')) === 'import')
  setFlagsFromString('--no-allocation-site-pretenuring');

const { ensureBundle } = await import('./bundle.mjs');
const bundle = await ensureBundle();
if (bundle === null) {
  process.stderr.write(
    'Tessera is not built: dist/tessera.mjs is missing, and esbuild, which makes it, is not installed.\n' +
      'Install with the development dependencies (npm install), which builds it, or run `npm run build`.\n',
  );
  process.exit(1);
}
if (process.env.TESSERA_FROM_SOURCE === '1') {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
} else {
  await import(pathToFileURL(bundle).href);
}
