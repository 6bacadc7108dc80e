#!/usr/bin/env node
// Runs the service from its JavaScript bundle (bin/bundle.mjs), built first when any source is
// newer, so there is no build step to forget. TESSERA_FROM_SOURCE=1 runs the TypeScript sources
// through tsx instead (slower to start; for a debugger that should see the sources as they are).
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// `tessera import` checks its file an order at a time: objects by the hundred thousand that live
// for one order. Run from the bundle, V8's allocation-site pretenuring (its guess that what a place
// in the code makes lives long) makes them in the old generation instead, and the check took three
// times as long: 2.3 s against 0.7 s of CPU for 50,000 attendees. Off for that command, before
// anything is loaded (set later, the guesses are made already).
if (process.argv.slice(2).find((arg) => !arg.startsWith('-')) === 'import')
  setFlagsFromString('--no-allocation-site-pretenuring');

if (process.env.TESSERA_FROM_SOURCE === '1') {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
} else {
  const { ensureBundle } = await import('./bundle.mjs');
  await import(pathToFileURL(await ensureBundle()).href);
}
