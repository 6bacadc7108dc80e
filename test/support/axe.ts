// axe-core's accessibility rules run on a page in the browser: the violations it finds, each with the
// elements it names. axe-core is looked up where Node finds packages (node_modules, NODE_PATH); where
// it is not installed, axeInstalled() says so and the checks are skipped, saying why.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

declare const window: any;

const require = createRequire(import.meta.url);

function axePath(): string | null {
  try {
    return require.resolve('axe-core/axe.min.js');
  } catch {
    return null;
  }
}

/** Whether axe-core is installed; when it is not, says that `what` is skipped. */
export function axeInstalled(what: string): boolean {
  const installed = axePath() !== null;
  if (!installed)
    console.warn(`Skipping ${what}: axe-core is not installed (npm install --no-save axe-core).`);
  return installed;
}

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
  const path = axePath();
  if (!path) throw new Error('axe-core is not installed');
  if (!(await page.evaluate(() => typeof window.axe === 'object')))
    await page.evaluate(readFileSync(path, 'utf8'));
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
