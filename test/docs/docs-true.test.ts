// README.md and docs/*.md name files and quote figures: this test holds them to the code. Every
// backticked repository path must exist (a glob must match something), and every figure in the
// table below must equal the constant the code or its tests use, so a renamed file or a changed
// limit fails here until the page says so too.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maxLimit } from '../../core/platform/pipeline/paging';
import { activityRetentionDays } from '../../core/platform/storage/activity';
import { pageWaitsAtMostMs } from '../../core/platform/storage/write-batch';
import { missesPerAddress, missesPerKey } from '../../core/platform/ticket-code-guesses';
import { freeRegistrationLimit } from '../../core/sales/free-limit';
import { leadsDefaultLimit, leadsMaxLimit } from '../../core/sponsors/lead-page';
import { defaultDispatcherOptions, keepDeliveredDays } from '../../core/webhooks/dispatcher';
import { secretGraceHours } from '../../core/webhooks/endpoints/rotate-webhook-secret';
import { eventTypes } from '../../core/webhooks/event-types';
import { maxHooks } from '../../core/webhooks/subscriptions/hook-view';
import { defaultConnections } from '../../db/connect';
import { ticketCodeLength } from '../../db/ticket-codes';
import { fileRowsToAssistant } from '../../mcp/tool-calls';
import { maxBodyBytes, maxJsonDepth } from '../../src/http/json-body';
import { minimumTokenLength } from '../../src/metrics/metrics-settings';
import { staleAfterMs } from '../../src/metrics/readiness';
import { defaultTimeouts } from '../../src/server';
import { deliveryTimeoutMs } from '../../src/services';
import { settingsFrom } from '../../src/settings';
import { minimumSecretKeyBytes } from '../../src/webhook-settings';
import {
  defaultListBytes,
  everyToolsetBytes,
  oneMoreToolsetBytes,
  oneScopeBytes,
  presetListBytes,
} from '../mcp/tool-list-budgets';

const root = join(import.meta.dirname, '..', '..');
const skipped = new Set(['node_modules', 'data', 'coverage', 'dist', '.git', '.tmp']);

/** The pages this test reads: the README and every page of docs/. */
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const textOf = (page: string) => readFileSync(join(root, page), 'utf8');

/** Every file and folder of the repository, from its root with forward slashes (folders end in /). */
function listRepository(dir = root): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (skipped.has(name)) continue;
    const full = join(dir, name);
    const path = relative(root, full).split(sep).join('/');
    if (statSync(full).isDirectory()) out.push(`${path}/`, ...listRepository(full));
    else out.push(path);
  }
  return out;
}

const topFolders = ['bench', 'bin', 'core', 'db', 'deploy', 'docs', 'mcp', 'rest', 'scripts', 'src', 'test'];
const fileEndings = /\.(ts|mts|cts|js|mjs|cjs|json|md|yml|yaml|sql|sh|html|css|png|service)$/;

/** A glob or a placeholder (`core/<area>/index.ts`) as a regular expression over repository paths. */
function patternOf(path: string): RegExp {
  const body = (path.match(/<[^>]+>|\*\*\/?|\*|\?|[^*?<]+/g) ?? [])
    .map((part) => {
      if (part.startsWith('<')) return '[^/]+';
      if (part.startsWith('**')) return '(?:.*/)?';
      if (part === '*') return '[^/]*';
      if (part === '?') return '[^/]';
      return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${body}/?$`);
}

/**
 * What a backticked text names in the repository, or null when it names no file: a path under one of
 * the top folders (`core/webhooks/dispatcher.ts`, `rest/pages/`, `scanner.ts:135-205`'s file), or a
 * bare file name (`write.ts`), found anywhere. Addresses (`/api/v1/...`), the data folder's files
 * (`DATA/...`) and package names (`ipaddr.js`) are not paths of the repository.
 */
function repositoryPath(code: string): { path: string; bare: boolean } | null {
  if (/\s/.test(code) || code.includes('://')) return null;
  const path = code.replace(/:\d+(?:-\d+)?$/, '');
  if (path.startsWith('/') || path.startsWith('-') || path.startsWith('.')) return null;
  if (path.includes('/')) return topFolders.includes(path.split('/')[0]!) ? { path, bare: false } : null;
  if (!fileEndings.test(path)) return null;
  if (existsSync(join(root, 'node_modules', path, 'package.json'))) return null;
  return { path, bare: true };
}

/** The backticked texts of a page, outside fenced blocks, with their line numbers. */
function inlineCode(text: string): { code: string; line: number }[] {
  const found: { code: string; line: number }[] = [];
  let fenced = false;
  text.split('\n').forEach((line, index) => {
    if (line.trimStart().startsWith('```')) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    for (const match of line.matchAll(/`([^`]+)`/g)) found.push({ code: match[1]!, line: index + 1 });
  });
  return found;
}

/** Paths written out in a page's text or its fenced blocks (`db/migrate.ts` without backticks), with their lines. */
function writtenPaths(text: string): { code: string; line: number }[] {
  const found: { code: string; line: number }[] = [];
  const written = new RegExp(
    `(?<![\\w/.<>*-])(?:${topFolders.join('|')})/[\\w./<>*-]*?\\.(?:ts|mts|js|mjs|json|md)(?![\\w/-])`,
    'g',
  );
  text.split('\n').forEach((line, index) => {
    for (const match of line.replace(/`[^`]*`/g, '').matchAll(written))
      found.push({ code: match[0], line: index + 1 });
  });
  return found;
}

/** The paths of a page that name nothing in the repository, as `page:line path`. */
function missingPaths(page: string, text: string, repository: readonly string[]): string[] {
  const files = new Set(repository);
  const names = new Set(repository.map((p) => p.replace(/\/$/, '').split('/').pop()));
  const missing: string[] = [];
  for (const { code, line } of [...inlineCode(text), ...writtenPaths(text)]) {
    const named = repositoryPath(code);
    if (!named) continue;
    const { path, bare } = named;
    const found = bare
      ? names.has(path) || (/[*<]/.test(path) && repository.some((p) => patternOf(`**/${path}`).test(p)))
      : /[*?<]/.test(path)
        ? repository.some((p) => patternOf(path).test(p))
        : files.has(path) || files.has(`${path.replace(/\/$/, '')}/`);
    if (!found) missing.push(`${page}:${line} ${code}`);
  }
  return missing;
}

/** A phrase of a page with `{n}` where the figure stands; spaces match any run of blanks or a line break. */
function phrase(words: string): RegExp {
  const [before, after] = words
    .split('{n}')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
  return new RegExp(`${before}([0-9][0-9,]*(?:\\.[0-9]+)?)${after}`, 'g');
}

/** The longest a table cell may be; a rule that needs more has a page or a list of its own. */
const longestCell = 1_600;

const defaults = settingsFrom({}, {});
const kb = (bytes: number) => bytes / 1000;

/** Each figure a page quotes, the phrase it stands in, and the constant it must equal. */
const figures: { page: string; says: string; is: number; constant: string }[] = [
  // Request bodies and time to send them.
  { page: 'README.md', says: 'at most {n} MB (`413', is: maxBodyBytes / 2 ** 20, constant: 'maxBodyBytes' },
  { page: 'README.md', says: 'and {n} levels of nesting', is: maxJsonDepth, constant: 'maxJsonDepth' },
  {
    page: 'docs/architecture.md',
    says: 'at most {n} MB and',
    is: maxBodyBytes / 2 ** 20,
    constant: 'maxBodyBytes',
  },
  { page: 'docs/architecture.md', says: 'MB and {n} levels', is: maxJsonDepth, constant: 'maxJsonDepth' },
  {
    page: 'README.md',
    says: "A client has {n} seconds to send a request's headers",
    is: defaultTimeouts.headersMs / 1000,
    constant: 'defaultTimeouts.headersMs',
  },
  {
    page: 'README.md',
    says: 'and {n} seconds for the whole request',
    is: defaultTimeouts.requestMs / 1000,
    constant: 'defaultTimeouts.requestMs',
  },
  // Rate limits.
  {
    page: 'README.md',
    says: 'Calls a minute per key (REST and MCP together) | | `TESSERA_RATE_LIMIT` | {n} |',
    is: defaults.ratePerMinute,
    constant: 'settingsFrom().ratePerMinute',
  },
  {
    page: 'README.md',
    says: 'Default rate limit: {n} calls a minute',
    is: defaults.ratePerMinute,
    constant: 'settingsFrom().ratePerMinute',
  },
  {
    page: 'README.md',
    says: 'per source address | | `TESSERA_AUTH_FAILURE_LIMIT` | {n} |',
    is: defaults.authFailuresPerMinute,
    constant: 'settingsFrom().authFailuresPerMinute',
  },
  {
    page: 'README.md',
    says: 'past {n} a minute (`TESSERA_AUTH_FAILURE_LIMIT`)',
    is: defaults.authFailuresPerMinute,
    constant: 'settingsFrom().authFailuresPerMinute',
  },
  {
    page: 'README.md',
    says: 'in 10 minutes | | `TESSERA_SIGN_UP_ADDRESS_LIMIT` | {n} |',
    is: defaults.signUpsPerAddress,
    constant: 'settingsFrom().signUpsPerAddress',
  },
  {
    page: 'README.md',
    says: 'per client address (default {n}) in 10 minutes',
    is: defaults.signUpsPerAddress,
    constant: 'settingsFrom().signUpsPerAddress',
  },
  {
    page: 'README.md',
    says: 'count per client address, {n} misses',
    is: missesPerAddress,
    constant: 'missesPerAddress',
  },
  { page: 'README.md', says: 'count per key, {n} a minute', is: missesPerKey, constant: 'missesPerKey' },
  // Read your writes.
  {
    page: 'docs/architecture.md',
    says: 'first waits ({n} s at most)',
    is: pageWaitsAtMostMs / 1000,
    constant: 'pageWaitsAtMostMs',
  },
  {
    page: 'docs/deployment.md',
    says: "the key activity's included; {n} s at most",
    is: pageWaitsAtMostMs / 1000,
    constant: 'pageWaitsAtMostMs',
  },
  // Card payments.
  {
    page: 'README.md',
    says: '`TESSERA_CHECKOUT_HOLD_MINUTES` | `{n}` |',
    is: defaults.checkoutHoldMinutes,
    constant: 'settingsFrom().checkoutHoldMinutes',
  },
  {
    page: 'docs/payments.md',
    says: '`TESSERA_CHECKOUT_HOLD_MINUTES` after it was made ({n} by default',
    is: defaults.checkoutHoldMinutes,
    constant: 'settingsFrom().checkoutHoldMinutes',
  },
  // Retention.
  {
    page: 'README.md',
    says: '`TESSERA_MAIL_BODY_RETENTION_DAYS` | {n} |',
    is: defaults.mailBodyRetentionDays,
    constant: 'settingsFrom().mailBodyRetentionDays',
  },
  {
    page: 'README.md',
    says: 'is kept {n} days and purged nightly',
    is: activityRetentionDays,
    constant: 'activityRetentionDays',
  },
  {
    page: 'README.md',
    says: 'key activity older than {n} days',
    is: activityRetentionDays,
    constant: 'activityRetentionDays',
  },
  {
    page: 'README.md',
    says: 'given-up messages older than {n} days',
    is: keepDeliveredDays,
    constant: 'keepDeliveredDays',
  },
  {
    page: 'docs/architecture.md',
    says: 'purged after {n} days',
    is: keepDeliveredDays,
    constant: 'keepDeliveredDays',
  },
  {
    page: 'docs/operations.md',
    says: 'is in the database for {n} days',
    is: activityRetentionDays,
    constant: 'activityRetentionDays',
  },
  // Webhook deliveries.
  {
    page: 'README.md',
    says: 'an attempt has {n} seconds',
    is: deliveryTimeoutMs / 1000,
    constant: 'deliveryTimeoutMs',
  },
  {
    page: 'README.md',
    says: 'at most {n} deliveries in flight',
    is: defaultDispatcherOptions.perReceiver,
    constant: 'defaultDispatcherOptions.perReceiver',
  },
  {
    page: 'docs/architecture.md',
    says: 'up to {n} deliveries in flight',
    is: defaultDispatcherOptions.perReceiver,
    constant: 'defaultDispatcherOptions.perReceiver',
  },
  {
    page: 'README.md',
    says: 'wakes it within {n} ms',
    is: defaultDispatcherOptions.coalesceMs,
    constant: 'defaultDispatcherOptions.coalesceMs',
  },
  {
    page: 'docs/architecture.md',
    says: 'waits {n} ms for others',
    is: defaultDispatcherOptions.coalesceMs,
    constant: 'defaultDispatcherOptions.coalesceMs',
  },
  { page: 'README.md', says: 'also signs for {n} hours', is: secretGraceHours, constant: 'secretGraceHours' },
  { page: 'README.md', says: 'At most {n} a workspace. Subscribing', is: maxHooks, constant: 'maxHooks' },
  // The event types.
  { page: 'README.md', says: 'each of the {n} types', is: eventTypes.size, constant: 'eventTypes.size' },
  {
    page: 'README.md',
    says: 'every one of the {n} event types',
    is: eventTypes.size,
    constant: 'eventTypes.size',
  },
  {
    page: 'docs/architecture.md',
    says: 'each of the {n} types',
    is: eventTypes.size,
    constant: 'eventTypes.size',
  },
  // The tool list's budgets (test/mcp/toolsets.test.ts).
  {
    page: 'README.md',
    says: 'default list under {n} KB',
    is: kb(defaultListBytes),
    constant: 'defaultListBytes',
  },
  {
    page: 'README.md',
    says: 'any one toolset under {n} KB',
    is: kb(oneMoreToolsetBytes),
    constant: 'oneMoreToolsetBytes',
  },
  {
    page: 'README.md',
    says: 'every toolset under {n} KB',
    is: kb(everyToolsetBytes),
    constant: 'everyToolsetBytes',
  },
  {
    page: 'README.md',
    says: 'each preset under {n} KB',
    is: kb(presetListBytes),
    constant: 'presetListBytes',
  },
  {
    page: 'README.md',
    says: "each scope's tools under {n} KB",
    is: kb(oneScopeBytes),
    constant: 'oneScopeBytes',
  },
  {
    page: 'docs/architecture.md',
    says: 'default list under {n} KB',
    is: kb(defaultListBytes),
    constant: 'defaultListBytes',
  },
  {
    page: 'docs/architecture.md',
    says: 'any one toolset under {n} KB',
    is: kb(oneMoreToolsetBytes),
    constant: 'oneMoreToolsetBytes',
  },
  {
    page: 'docs/architecture.md',
    says: 'presets under {n} KB',
    is: kb(presetListBytes),
    constant: 'presetListBytes',
  },
  {
    page: 'docs/architecture.md',
    says: "each scope's tools under {n} KB",
    is: kb(oneScopeBytes),
    constant: 'oneScopeBytes',
  },
  // Settings and formats.
  {
    page: 'README.md',
    says: '`TESSERA_DB_CONNECTIONS` | {n} (5 to 100)',
    is: defaultConnections,
    constant: 'defaultConnections',
  },
  {
    page: 'README.md',
    says: '(at least {n} characters)',
    is: minimumTokenLength,
    constant: 'minimumTokenLength',
  },
  {
    page: 'README.md',
    says: 'at least {n} bytes (`openssl',
    is: minimumSecretKeyBytes,
    constant: 'minimumSecretKeyBytes',
  },
  { page: 'README.md', says: 'a code of {n} characters', is: ticketCodeLength, constant: 'ticketCodeLength' },
  { page: 'README.md', says: '`pageSize`) above {n} is refused', is: maxLimit, constant: 'maxLimit' },
  { page: 'README.md', says: '`limit` 1 to {n} (default', is: leadsMaxLimit, constant: 'leadsMaxLimit' },
  { page: 'README.md', says: '1 to 100 (default {n})', is: leadsDefaultLimit, constant: 'leadsDefaultLimit' },
  {
    page: 'README.md',
    says: 'the free limit ({n})',
    is: freeRegistrationLimit,
    constant: 'freeRegistrationLimit',
  },
  { page: 'docs/operations.md', says: 'pages of the list ({n}, leads', is: maxLimit, constant: 'maxLimit' },
  {
    page: 'docs/operations.md',
    says: 'leads {n}) and streamed',
    is: leadsMaxLimit,
    constant: 'leadsMaxLimit',
  },
  {
    page: 'docs/operations.md',
    says: 'get the first {n} rows',
    is: fileRowsToAssistant,
    constant: 'fileRowsToAssistant',
  },
  {
    page: 'docs/operations.md',
    says: 'ticked in the last {n} seconds',
    is: staleAfterMs / 1000,
    constant: 'staleAfterMs',
  },
];

describe('the docs', () => {
  const repository = listRepository();

  it('name only paths that exist: every repository path, backticked or written out, and every glob matches something', () => {
    const missing = pages.flatMap((page) => missingPaths(page, textOf(page), repository));
    expect(missing).toEqual([]);
  });

  it('would notice a path that names nothing', () => {
    const text = [
      'See `core/webhooks/dispatcher.ts:42`, `core/<area>/index.ts` and `db/migrations/*-webhooks.ts`,',
      'then `core/webhooks/dispatch.ts`, `rest/nowhere/` and `core/*/no-such-*.ts`; `split-files.ts`.',
      '`/api/v1/events` is an address, `DATA/instance.key` the data folder, `ipaddr.js` a package.',
      'Written out: db/migrate.ts exists, db/migrator.ts does not (https://example.org/db/x.ts is an address).',
    ].join('\n');
    expect(missingPaths('page.md', text, repository)).toEqual([
      'page.md:2 core/webhooks/dispatch.ts',
      'page.md:2 rest/nowhere/',
      'page.md:2 core/*/no-such-*.ts',
      'page.md:2 split-files.ts',
      'page.md:4 db/migrator.ts',
    ]);
  });

  it('keep each table cell short enough to read (the lock order was one cell of 5,280 characters)', () => {
    const long = pages.flatMap((page) =>
      textOf(page)
        .split('\n')
        .filter((line) => line.startsWith('|'))
        .flatMap((line) => line.split(/(?<!\\)\|/))
        .filter((cell) => cell.length > longestCell)
        .map((cell) => `${page}: ${cell.trim().slice(0, 60)}… (${cell.length} characters)`),
    );
    expect(long).toEqual([]);
  });

  it.each(figures)('quote $constant wherever $page says "$says"', ({ page, says, is }) => {
    const quoted = [...textOf(page).matchAll(phrase(says))].map((m) => Number(m[1]!.replace(/,/g, '')));
    expect(
      quoted.length,
      `${page} no longer says "${says}": say it again, or change this table with the page`,
    ).toBeGreaterThan(0);
    for (const figure of quoted) expect(figure, `${page}: "${says}"`).toBe(is);
  });
});
