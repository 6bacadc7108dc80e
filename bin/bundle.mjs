// Where the service's bundle is (dist/, made by bin/build.mjs) and whether it is fresh. In a
// checkout with the development dependencies, dist/ is rebuilt whenever a source, the build
// script, package.json or the installed packages are newer than it, so a developer never runs a
// stale one. An installed package without esbuild (npm install --omit=dev) runs the dist/ it
// was given as it is.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildToolsInstalled, bundleFile, distFiles, root } from './dist-files.mjs';

export { bundleFile };

const sourceFolders = ['src', 'core', 'rest', 'mcp', 'db'];
const otherInputs = [
  'bin/bundle.mjs',
  'bin/dist-files.mjs',
  'bin/build.mjs',
  'package.json',
  'node_modules/.package-lock.json',
];

function newestIn(folder, newest) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) newest = newestIn(path, newest);
    else newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function newestInput() {
  let newest = 0;
  for (const folder of sourceFolders) newest = newestIn(join(root, folder), newest);
  for (const file of otherInputs) newest = Math.max(newest, mtimeOf(join(root, file)));
  return newest;
}

/** Whether every file of dist/ is there and no input is newer than it. */
export function bundleIsFresh() {
  const built = Math.min(...distFiles.map((file) => mtimeOf(join(root, 'dist', file))));
  return built > 0 && built >= newestInput();
}

/**
 * The bundle's path, dist/ rebuilt first when it is stale and the build tools are installed; null
 * when there is none and nothing to build it with.
 */
export async function ensureBundle() {
  if (!buildToolsInstalled()) return mtimeOf(bundleFile) > 0 ? bundleFile : null;
  if (!bundleIsFresh()) await (await import('./build.mjs')).buildAll();
  return bundleFile;
}
