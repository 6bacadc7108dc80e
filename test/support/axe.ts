// axe-core's accessibility rules run on a page in the browser: the violations it finds, each with the
// elements it names. axe-core is a dev dependency, so every browser test of a page can run it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

declare const window: any;

const require = createRequire(import.meta.url);

/** axe-core's browser bundle, read once. */
let axeSource: string | undefined;
const axeScript = () => {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
};

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * What axe-core finds wrong on the page as it is now (WCAG 2.1 A and AA, and axe's best practices).
 * Loaded through the debugging protocol, so a page's Content-Security-Policy does not stop it.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeScript());
  return page.evaluate(async () => {
    const result = await window.axe.run(window.document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n: any) => n.target.join(' ')),
    }));
  });
}
