import type { DeveloperDeps } from '../developer/deps.js';
import type { WebhookSecrets } from '@svc/signing-keys';

/** What webhook management needs: the developer's view of an organization, and the endpoints' sealed secrets. */
export interface WebhookDeps extends DeveloperDeps {
  webhookSecrets: WebhookSecrets;
}
