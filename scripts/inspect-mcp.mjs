#!/usr/bin/env node
// Lists and calls Tessera's MCP server with the official MCP Inspector in CLI mode, as an
// outside check of what an assistant meets: tools/list with the Inspector's --strict schema
// portability check, a few tool calls, the briefing resource and a prompt.
//
//   npm run inspect:mcp                      starts a server of its own on a temporary data folder
//   TESSERA_KEY=abk_… npm run inspect:mcp -- --url https://localhost:8443/mcp --ca data/tls/localhost-cert.pem
//
// --toolsets names the toolsets listed (the query of /mcp?toolsets=…): all by default, so the
// --strict check reads every tool the key may call; --toolsets '' checks the default list.
//
// The key is read from TESSERA_KEY (or --key, which npm echoes with the command line) and never
// printed: the lines name its prefix only, and what the Inspector says has the key masked.
//
// The Inspector is fetched by npx (pinned below) on first use; that needs the npm registry.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const inspectorVersion = '2.12.0';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({
  options: {
    url: { type: 'string' },
    key: { type: 'string' },
    ca: { type: 'string' },
    toolsets: { type: 'string', default: 'all' },
  },
});

const freePort = () =>
  new Promise((done) => {
    const probe = createServer().listen(0, 'localhost', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });

/** Starts `tessera serve` on a fresh data folder; answers its MCP address, demonstration key and certificate. */
async function startOwnServer() {
  const data = mkdtempSync(join(tmpdir(), 'tessera-inspect-'));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [join(root, 'bin/tessera.mjs'), 'serve', '--port', String(port), '--data', data],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    out += chunk;
  });
  const deadline = Date.now() + 60_000;
  while (!/Demonstration key[^:]*: (\S+)/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`tessera serve did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: /MCP:\s+(\S+)/.exec(out)[1],
    key: /Demonstration key[^:]*: (\S+)/.exec(out)[1],
    ca: /Self-signed certificate: (\S+)/.exec(out)[1],
    stop: () => {
      child.kill();
      rmSync(data, { recursive: true, force: true });
    },
  };
}

const server = options.url
  ? { ...options, key: options.key ?? process.env.TESSERA_KEY, stop: () => {} }
  : await startOwnServer();
if (!server.key) throw new Error('A key is needed with --url: TESSERA_KEY=abk_… (or --key).');
const mcpUrl = options.toolsets
  ? `${server.url}?toolsets=${encodeURIComponent(options.toolsets)}`
  : server.url;

/** A key as it may be shown: its prefix (abk_ and 12 characters), never its secret. */
const maskedKey = `${server.key.slice(0, 16)}…`;
/** Text fit to print: the key masked wherever it appears. */
const masked = (text) => String(text).split(server.key).join(maskedKey);
console.log(`MCP Inspector ${inspectorVersion} against ${mcpUrl} with the key ${maskedKey}`);
const env = { ...process.env, ...(server.ca ? { NODE_EXTRA_CA_CERTS: resolve(server.ca) } : {}) };

/** One Inspector call; answers its JSON output. It exits 5 when the tool answered a tool error. */
function inspector(...args) {
  return inspectorAllowing([0], ...args);
}

function inspectorAllowing(statuses, ...args) {
  const run = spawnSync(
    'npx',
    [
      '-y',
      `@modelcontextprotocol/inspector@${inspectorVersion}`,
      '--cli',
      mcpUrl,
      '--transport',
      'http',
      '--header',
      `Authorization: Bearer ${server.key}`,
      ...args,
    ],
    { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (!statuses.includes(run.status))
    throw new Error(masked(`inspector ${args.join(' ')} exited ${run.status}:\n${run.stderr ?? run.error}`));
  return {
    status: run.status,
    json: run.stdout.trim() ? JSON.parse(run.stdout) : {},
    stdout: run.stdout,
    stderr: run.stderr,
  };
}

const failures = [];
function check(what, ok, detail = '') {
  console.log(masked(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? ` (${detail})` : ''}`));
  if (!ok) failures.push(what);
}

try {
  const listed = inspector('--method', 'tools/list', '--strict');
  const size = Buffer.byteLength(JSON.stringify(listed.json));
  check(
    'tools/list',
    // The key's own tools (the demonstration key's are reads), and the discovery tools.
    ['get_me', 'list_toolsets', 'describe_tools', 'call_tool'].every((name) =>
      listed.json.tools.some((tool) => tool.name === name),
    ),
    `${listed.json.tools.length} tools, ${(size / 1024).toFixed(1)} KB`,
  );
  const warnings = (listed.stderr.match(/^Warning:/gm) ?? []).length;
  check('the Inspector finds no error-severity schema problem (--strict)', true, `${warnings} warnings`);

  const toolsets = inspector('--method', 'tools/call', '--tool-name', 'list_toolsets');
  check(
    'tools/call list_toolsets',
    Array.isArray(toolsets.json.structuredContent?.toolsets),
    toolsets.json.structuredContent?.toolsets
      ?.map((x) => `${x.name}${x.listed ? '' : ' (not listed)'}`)
      .join(', '),
  );

  const me = inspector('--method', 'tools/call', '--tool-name', 'get_me');
  check('tools/call get_me', !me.json.isError && typeof me.json.structuredContent?.workspaceId === 'string');

  const events = inspector('--method', 'tools/call', '--tool-name', 'list_events', '--tool-arg', 'limit=1');
  const eventId = events.json.structuredContent?.data?.[0]?.eventId;
  check('tools/call list_events', !events.json.isError && typeof eventId === 'string');

  const stats = inspector(
    '--method',
    'tools/call',
    '--tool-name',
    'get_event_stats',
    '--tool-arg',
    `eventId=${eventId}`,
  );
  check(
    'tools/call get_event_stats',
    !stats.json.isError && Number.isInteger(stats.json.structuredContent?.registered),
  );

  const refused = inspectorAllowing(
    [5],
    '--method',
    'tools/call',
    // Through call_tool: the Inspector itself refuses a tool its key's list leaves out.
    '--tool-name',
    'call_tool',
    '--tool-arg',
    'name=create_event',
    '--tool-arg',
    'arguments={"name":"Nope"}',
  );
  check(
    'a write with the read-only key is a tool error, through call_tool',
    refused.status === 5 && refused.stderr.includes('tool_is_error'),
    refused.stderr.split('\n').find((line) => line.includes('tool_is_error')),
  );

  const templates = inspector('--method', 'resources/templates/list');
  check(
    'resources/templates/list',
    templates.json.resourceTemplates?.[0]?.uriTemplate === 'tessera://events/{eventId}/briefing',
  );

  const briefing = inspector('--method', 'resources/read', '--uri', `tessera://events/${eventId}/briefing`);
  check('resources/read briefing', /## Sales/.test(briefing.json.contents?.[0]?.text ?? ''));

  const prompts = inspector('--method', 'prompts/list');
  check(
    'prompts/list',
    prompts.json.prompts?.length >= 3,
    prompts.json.prompts?.map((p) => p.name).join(', '),
  );

  const prompt = inspector(
    '--method',
    'prompts/get',
    '--prompt-name',
    'summarise_sales',
    '--prompt-args',
    `eventId=${eventId}`,
  );
  check('prompts/get summarise_sales', prompt.json.messages?.length === 2);
} catch (error) {
  // Printed here, masked, rather than by Node (whose report would show the Inspector's words as they are).
  console.error(masked(error?.stack ?? error));
  failures.push('the run');
} finally {
  server.stop();
}
if (failures.length > 0) {
  console.error(`${failures.length} check(s) failed.`);
  process.exit(1);
}
console.log('All checks passed.');
