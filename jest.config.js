/**
 * Deadlines guard against hangs only, and must hold on a machine `SLOWDOWN` times slower than a
 * quiet one (test/helpers/deadlines.ts, same value): 30 s on a quiet machine.
 */
const SLOWDOWN = 4;

/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } },
    ],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30_000 * SLOWDOWN,
  maxWorkers: 2,
};
