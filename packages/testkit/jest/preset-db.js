import { fileURLToPath } from 'node:url';
import preset from './preset.js';

// For suites that touch PostgreSQL: each jest run gets a fresh, migrated database of its own,
// dropped afterwards, so suites never see each other's rows or depend on workspace order.
export default {
  ...preset,
  globalSetup: fileURLToPath(new URL('./global-setup.js', import.meta.url)),
  globalTeardown: fileURLToPath(new URL('./global-teardown.js', import.meta.url)),
};
