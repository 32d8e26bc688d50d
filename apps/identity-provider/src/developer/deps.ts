import type { ClientAuthDeps } from '../clients/client-auth.js';
import type { AccessTokenGuardDeps } from '../access-token-guard/deps.js';
import type { SessionCookieDeps } from '../sessions/session-cookie.js';
import type { MailDeps } from '../mail/deps.js';
import type { CoreDeps } from '@svc/runtime';

/**
 * What the developer endpoints need: a client (HTTP Basic, or its own client_credentials token) or
 * a signed-in member speaks for an organization; sign-up mails its link. Its lists may be read
 * from the replica (`reads`); every write through it keeps its organization's reads on the primary.
 */
export interface DeveloperDeps extends SessionCookieDeps, ClientAuthDeps, AccessTokenGuardDeps, MailDeps, Pick<CoreDeps, 'reads'> {}
