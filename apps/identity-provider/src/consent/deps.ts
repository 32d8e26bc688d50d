import type { CoreDeps } from '@svc/runtime';
import type { EndSessionDeps } from '../sessions/end-session.js';

/** What the hosted consent pages and the approve and deny decisions need from the app. */
export interface ConsentDeps extends EndSessionDeps, Pick<CoreDeps, 'store'> {}
