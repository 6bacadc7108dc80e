// Headless Chromium for the tests of pages people see: Debian's package (CHROMIUM_PATH overrides).
// A test file skips, saying why and how to install it, where Chromium is missing.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether Chromium is installed; when it is not, says that `what` is skipped. */
export function chromiumInstalled(what: string): boolean {
  const installed = existsSync(chromiumPath);
  if (!installed)
    console.warn(`Skipping ${what}: no Chromium at ${chromiumPath} (apt-get install chromium).`);
  return installed;
}

/** Chromium as the page tests run it: no sandbox (containers), no GPU, nothing fetched in the background. */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', ...args],
  });
}

/** Where page tests put screenshots: docs/screenshots/ with UPDATE_SCREENSHOTS=1, else .tmp/screenshots. */
export const screenshotDir = resolve(
  import.meta.dirname,
  process.env.UPDATE_SCREENSHOTS ? '../../docs/screenshots' : '../../.tmp/screenshots',
);
