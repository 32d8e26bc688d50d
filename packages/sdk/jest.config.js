import preset from '@svc/testkit/jest-preset-db';

// One file at a time: two of them start their own three services on this workspace's database
// and one seeds the demo data (and its signing keys); run side by side they raced each other.
export default { ...preset, maxWorkers: 1 };
