import preset from '@svc/testkit/jest-preset-db';

export default preset;
