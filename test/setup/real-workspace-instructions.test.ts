// Every instruction the service gives makes the organiser's own workspace for real events without
// sample data (a sample workspace never sends e-mail, so events built there never reach the people
// who register), and names --sample apart, as a way to try things out that sends no e-mail: the
// README, docs/, the first-five-minutes page and the CLI's examples. The start banner is checked
// as printed by test/fresh-clone.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPage } from '../../rest/pages/start';
import { cliExamples } from '../../src/cli-examples';

const root = join(import.meta.dirname, '..', '..');
const text = (file: string) => readFileSync(join(root, file), 'utf8');

/** The lines that make a workspace, as a reader would copy them. */
const workspaceLines = (body: string) =>
  body
    .split('\n')
    .filter((line) => /workspace create --name/.test(line))
    .map((line) => line.replaceAll('&lt;', '<').replaceAll('&gt;', '>'));

const sources: [string, string][] = [
  ['README.md', text('README.md')],
  ['docs/operations.md', text('docs/operations.md')],
  ['/developers/start', startPage('https://events.example.org')],
  [
    'the CLI examples',
    Object.values(cliExamples)
      .flat()
      .map(([line, comment]) => (comment ? `${line}  # ${comment}` : line))
      .join('\n'),
  ],
];

describe('instructions that make a workspace', () => {
  it.each(sources)('%s makes the workspace for your events without --sample', (_where, body) => {
    const lines = workspaceLines(body);
    expect(lines.some((line) => /"My events"|"Our events"|"Nordic Events"/.test(line))).toBe(true);
    for (const line of lines.filter((l) => /"(My|Our) events"/.test(l)))
      expect(line).not.toContain('--sample');
  });

  it.each(sources)('%s says, wherever it gives --sample, that it sends no e-mail', (where, body) => {
    const lines = body.split('\n');
    lines.forEach((line, at) => {
      if (!/workspace create --name [^\n]*--sample/.test(line)) return;
      // On the line, or in the sentence just before it (a page's paragraph above its example).
      const near = lines.slice(Math.max(0, at - 3), at + 1).join(' ');
      expect(near, `${where}: ${line}`).toMatch(/sends no e-mail/);
    });
  });
});
