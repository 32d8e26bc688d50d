import { fileURLToPath } from 'node:url';

// The one jest setup of the repo: ESM everywhere. TypeScript is transformed by swc into ES
// modules and jest runs with --experimental-vm-modules, so ESM-only dependencies (jose,
// Digital Bazaar's VC libraries) load as they are. Workspace packages resolve to their
// TypeScript source through the `source` export condition, so tests need no build of them.
export default {
  // Node's, waiting at each file's end until what the file opened has closed (environment.js).
  testEnvironment: fileURLToPath(new URL('./environment.js', import.meta.url)),
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022', keepClassNames: true },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'node-addons'] },
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/src/**/*.test.ts'],
  // A bound on a hung test, not a speed check (those are bench/'s): two workspaces' suites share two
  // cores under `npm test`, and a test that hashes passwords or starts a server can take 20 s then.
  testTimeout: 60_000,
  // Two cores: more workers only contend.
  maxWorkers: 2,
  // Each test file's ES modules stay in the worker's heap after the file (jest's vm modules): a
  // worker grew by about 30 MB a file, to 1.3 GB over the identity provider's suite, and its long
  // collections then stalled requests past Redis's one-second command timeout (a 503 in a test)
  // and delayed the worker's exit past jest's wait. A worker past this size is replaced between files.
  workerIdleMemoryLimit: '512MB',
};
