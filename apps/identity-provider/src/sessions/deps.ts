import type { CoreDeps } from '@svc/runtime';
import type { EndSessionDeps } from './end-session.js';

/** What signing in and out (/auth/session) needs from the app. */
export interface SessionDeps extends EndSessionDeps, Pick<CoreDeps, 'store'> {}
