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

/**
 * How long a page's navigation or action may take: Playwright's own 30 s is a clock a loaded
 * machine overran (a first /developers load did, at a load average of 20 on two cores). A wait
 * still ends as soon as the page is there; this only ends one for what never comes.
 */
export const pageTimeoutMs = 120_000;

/** Chromium as the page tests run it: no sandbox (containers), no GPU, nothing fetched in the background. */
export async function launchChromium(args: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', ...args],
    timeout: pageTimeoutMs,
  });
  // Every context (browser.newPage makes one through newContext too) gets the longer limits.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...options: Parameters<Browser['newContext']>) => {
    const context = await newContext(...options);
    context.setDefaultTimeout(pageTimeoutMs);
    context.setDefaultNavigationTimeout(pageTimeoutMs);
    return context;
  };
  return browser;
}

/** Where page tests put screenshots: docs/screenshots/ with UPDATE_SCREENSHOTS=1, else .tmp/screenshots. */
export const screenshotDir = resolve(
  import.meta.dirname,
  process.env.UPDATE_SCREENSHOTS ? '../../docs/screenshots' : '../../.tmp/screenshots',
);
