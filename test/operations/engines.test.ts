// `npm install` on every Node.js version the README supports prints no engine warning: each package
// of the lock file admits the lowest version package.json's engines allow (and the README names it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const lowest = semver.minVersion(manifest.engines.node)!.version;

describe('the supported Node.js versions', () => {
  it('are admitted by the engines of every package in package-lock.json', () => {
    const refusing = Object.entries(lock.packages as Record<string, { version?: string; engines?: unknown }>)
      .filter(([path]) => path !== '')
      .flatMap(([path, entry]) => {
        const node = (entry.engines as { node?: string } | undefined)?.node;
        // An engines list (an old form npm ignores) says nothing of Node.
        if (typeof node !== 'string') return [];
        return semver.satisfies(lowest, node) ? [] : [`${path}@${entry.version}: node ${node}`];
      });
    expect(refusing, `packages refusing Node.js ${lowest}`).toEqual([]);
  });

  it('start where the README says', () => {
    const major = semver.major(lowest);
    const minor = semver.minor(lowest);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain(
      `Needs Node.js ${major}.${minor} or newer`,
    );
  });

  it('include the Node.js running this suite', () => {
    expect(semver.satisfies(process.versions.node, manifest.engines.node)).toBe(true);
  });
});
