import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A test CA for the HTTPS receivers of webhook tests, trusted through NODE_EXTRA_CA_CERTS.
    globalSetup: ['test/support/global-setup.ts'],
    // Every test file fails if it connected anywhere but loopback; each notes its CPU time (first, so
    // its afterAll runs last and counts the file's own teardown).
    setupFiles: ['test/support/cpu-time.ts', 'test/support/loopback-only.ts'],
    env: { TESSERA_LOG_LEVEL: 'silent', TESSERA_STRICT_PROBLEMS: '1' },
    // The JSON report lets .ci/run print a plain 'N passed, N failed' closing line.
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-report.json' }]],
  },
});
