import type { PasskeyView } from '@svc/schemas';
import type { Config } from '../config.js';
import { keyedHash } from '../keys/keyed.js';

/** A stored passkey as the person sees it (GET /v2/me/passkeys, the account page). */
export function passkeyView(p: {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  backupEligible: boolean;
  backedUp: boolean;
  attestedHardware: boolean;
  transports: string[];
}): PasskeyView {
  return {
    id: p.id,
    name: p.name,
    created_at: p.createdAt.toISOString(),
    last_used_at: p.lastUsedAt?.toISOString() ?? null,
    synced: p.backupEligible,
    backed_up: p.backedUp,
    attested_hardware: p.attestedHardware,
    transports: p.transports,
  };
}

/**
 * The WebAuthn user handle of a person: the same for all their passkeys (so an authenticator
 * replaces rather than piles up this account's credentials), no email or id in it (authenticators
 * may show or sync it), and checkable at sign-in against the passkey's owner.
 */
export function userHandle(config: Config, userId: string): string {
  return keyedHash(config.IDP_SECRET, 'webauthn-user', userId);
}
