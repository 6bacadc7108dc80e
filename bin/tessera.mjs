#!/usr/bin/env node
// Runs the service from its JavaScript bundle (bin/bundle.mjs), built first when any source is
// newer, so there is no build step to forget. TESSERA_FROM_SOURCE=1 runs the TypeScript sources
// through tsx instead (slower to start; for a debugger that should see the sources as they are).
import { pathToFileURL } from 'node:url';

if (process.env.TESSERA_FROM_SOURCE === '1') {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
} else {
  const { ensureBundle } = await import('./bundle.mjs');
  await import(pathToFileURL(await ensureBundle()).href);
}
