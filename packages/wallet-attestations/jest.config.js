import preset from '@svc/testkit/jest-preset';

export default preset;
