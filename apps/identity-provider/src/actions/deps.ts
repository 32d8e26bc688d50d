import type { DeveloperDeps } from '../developer/deps.js';

/** What actions need: the developer's view of an organization (managing them), and the token and client guards (proving, checking). */
export type ActionDeps = DeveloperDeps;
