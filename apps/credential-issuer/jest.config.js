import preset from '@svc/testkit/jest-preset-db';

export default { ...preset, testTimeout: 60_000 };
