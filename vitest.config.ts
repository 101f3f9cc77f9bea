import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // The local model and SQLite are native-heavy: forks isolate them per file.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
  },
});
