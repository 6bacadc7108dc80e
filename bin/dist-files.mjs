// What the build makes and whether it can run here: shared by bin/bundle.mjs (which runs the
// bundle, building it first when stale) and bin/build.mjs (which builds it), so neither
// imports the other.
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '..');
/** What the build makes, by its place in dist/ (the service's bundle last: it is what runs). */
export const distFiles = ['scan-app/scan.js', 'tessera.mjs'];
export const bundleFile = join(root, 'dist', 'tessera.mjs');

/** Whether esbuild is installed (the development dependencies are). */
export function buildToolsInstalled() {
  try {
    createRequire(import.meta.url).resolve('esbuild');
    return true;
  } catch {
    return false;
  }
}
