import { defineConfig } from 'vitest/config';

// Time limits catch a test that hangs; none may fail one that is only slow. This machine's speed
// varies four-fold from day to day and CI shares two cores: with the load average at 20 on two
// cores the slowest test under these defaults took 72 s (a backup under load), and two timed out
// at the old 30 s. Tests that run longer (the probes, the 50,000-attendee import) set their own. A
// hung test still fails, a few minutes later.
/** Test files that need a process of their own (see isolate below). */
const freshProcess = ['test/db/server-statements.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 180_000,
    hookTimeout: 240_000,
    teardownTimeout: 60_000,
    // expect.poll waits for what a background worker does (a delivery, an e-mail): 1 s by default,
    // which a loaded machine overran. It answers as soon as the condition holds.
    expect: { poll: { timeout: 30_000 } },
    pool: 'forks',
    // Test files run one after another in each worker process without a fresh module graph each
    // (isolate: false): loading the service's modules (about 2.4 s of CPU a file) is paid once a
    // worker, not 260 times. A test file keeps nothing at module level: each starts its own servers,
    // stores and clocks; the set-up files (test/support/cpu-time.ts, loopback-only.ts) count per
    // file. The files that assert what a process keeps once (how many statements
    // db/server-statements.ts and db/prepared.ts keep prepared at most) run in a fresh one.
    projects: [
      // Each project names its own files: arrays a project extends are joined, not replaced.
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: freshProcess, isolate: false },
      },
      { extends: true, test: { name: 'fresh', include: freshProcess, isolate: true } },
    ],
    // Two test files at a time on two cores (vitest's default is one fewer than the cores). Every
    // file keeps to itself: its servers listen on ephemeral ports, its data folders are its own,
    // and on PostgreSQL each data folder gets a database of its own. TESSERA_TEST_WORKERS overrides.
    maxWorkers: Number(process.env.TESSERA_TEST_WORKERS ?? 2),
    // A test CA for the HTTPS receivers of webhook tests, trusted through NODE_EXTRA_CA_CERTS.
    globalSetup: ['test/support/global-setup.ts'],
    // Every test file fails if it connected anywhere but loopback; each notes its CPU time (first, so
    // its afterAll runs last and counts the file's own teardown). Vitest 4 waits for its main
    // process's acknowledgement of a test's report without the 60 s limit vitest 3 had, which a
    // loaded machine overran (vitest-dev/vitest#8297).
    setupFiles: ['test/support/cpu-time.ts', 'test/support/loopback-only.ts'],
    env: { TESSERA_LOG_LEVEL: 'silent', TESSERA_STRICT_PROBLEMS: '1' },
    // The JSON report lets .ci/run print a plain 'N passed, N failed' closing line.
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-report.json' }]],
  },
});
