import type { ClientAuthDeps } from '../clients/client-auth.js';
import type { AccessTokenGuardDeps } from '../access-token-guard/deps.js';
import type { SessionCookieDeps } from '../sessions/session-cookie.js';
import type { MailDeps } from '../mail/deps.js';

/**
 * What the developer endpoints need: a client (HTTP Basic, or its own client_credentials token) or
 * a signed-in member speaks for an organization; sign-up mails its link.
 */
export interface DeveloperDeps extends SessionCookieDeps, ClientAuthDeps, AccessTokenGuardDeps, MailDeps {}
