import preset from '@svc/testkit/jest-preset-db';

export default { ...preset, testTimeout: 90_000 };
