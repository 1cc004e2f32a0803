import { defineConfig } from 'vitest/config';

/** The cases suite: real-world inputs kept outside the repository (see README, "Tests"). */
export default defineConfig({
  test: {
    include: ['test/cases/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    passWithNoTests: true,
  },
});
