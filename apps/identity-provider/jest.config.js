import { MANY_FILES } from '@svc/testkit/jest-preset';
import preset from '@svc/testkit/jest-preset-db';

// Seventy test files: workers are replaced before their heaps grow large (the preset says why).
export default { ...preset, ...MANY_FILES };
