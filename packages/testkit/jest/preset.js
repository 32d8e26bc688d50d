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
  // How long jest waits for an idle worker to exit when the run ends before it kills it and prints
  // "a worker process has failed to exit gracefully". A worker exits within 20 ms of
  // the request (environment.js), whatever it still holds, and names what that is: a leak is
  // reported there, file by file. What made it miss jest's 500 ms was a worker whose event loop was
  // held at that moment (a long collection, two suites on two cores), not a leak.
  workerGracefulExitTimeout: 10_000,
};

/**
 * For a suite of many files (the identity provider's): each test file's ES modules stay in the
 * worker's heap after the file (jest's vm modules), about 30 MB a file, and a worker that grew to
 * 1.3 GB stalled requests in its long collections past Redis's one-second command timeout (a 503
 * in a test) and its exit past jest's wait. A worker past this size is replaced between files.
 * Not in the preset: with a memory limit jest never runs in band, and a package of one or two
 * files would then start a worker it does not need.
 */
export const MANY_FILES = { workerIdleMemoryLimit: '512MB' };
