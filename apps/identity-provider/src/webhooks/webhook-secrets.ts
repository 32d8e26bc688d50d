import type { KeyEncryption } from '@svc/signing-keys';

/**
 * Endpoints' signing secrets at rest: sealed with the identity provider's key-encryption key
 * (envelope encryption, as its signing keys are) and bound to the endpoint's id, so a database
 * dump opens none and one endpoint's sealed secret does not open as another's.
 */
export class WebhookSecrets {
  constructor(private readonly encryption: KeyEncryption) {}

  seal(endpointId: string, secret: string): object {
    return this.encryption.seal({ secret }, `webhook:${endpointId}`);
  }

  open(endpointId: string, sealed: unknown): string {
    return this.encryption.open<{ secret: string }>(sealed, `webhook:${endpointId}`).secret;
  }
}
