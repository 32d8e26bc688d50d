import preset from '@svc/testkit/jest-preset-db';

export default {
  ...preset,
  // Its files share one table by design (each service's signing keys), and rotate.test.ts empties the
  // credential issuer's keys before each test: run them one after another, never at once (in parallel,
  // service-keks.test.ts once lost the issuer key it had just made).
  maxWorkers: 1,
};
