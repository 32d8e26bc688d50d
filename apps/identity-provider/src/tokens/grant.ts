// What an access token carries and what it grants: the types every capability that takes a
// bearer token shares, in a file of their own so that none of them imports the token services.

/** RFC 7800 `cnf` as this server writes it: one of the two members. */
export interface Confirmation {
  jkt?: string;
  'x5t#S256'?: string;
}

/** A well-formed `cnf`: absent, or one string member of the two. */
export const wellFormedConfirmation = (cnf: unknown) =>
  cnf === undefined ||
  (typeof cnf === 'object' && cnf !== null && (typeof (cnf as Confirmation).jkt === 'string') !== (typeof (cnf as Confirmation)['x5t#S256'] === 'string'));

export interface AccessClaims {
  sub: string;
  client_id: string;
  scope: string;
  authorization_id: string;
  jti: string;
  exp: number;
  iat?: number;
  iss?: string;
  /** This service's data API; with the credential issuer beside it for a grant of credentials (RFC 8707). */
  aud: string | string[];
  /** What the token is bound to: a DPoP key's thumbprint (RFC 9449 §6) or a client certificate's (RFC 8705 §3.1). */
  cnf?: Confirmation;
  /** The sign-in its grant was approved in (RFC 9470): when, and how (tokens made before acr was kept have none). */
  auth_time?: number;
  acr?: string;
  amr?: string[];
}

/** What a live access token grants, read in the same round trip that checks revocation. */
export interface Grant {
  authorizationId: string;
  userId: string;
  /** Everything the user approved; a refreshed token may carry fewer (its own `scope`). */
  grantedScopes: string[];
  /** Preset data may be read until this moment (approval + the client's preset_cache_ttl_seconds). */
  dataWindowEndsAt: Date;
  /** Changes whenever anything presets read from the user changes (database triggers). */
  dataVersion: string;
  /** What user info shows, read in the same round trip. */
  user: { email: string; serviceId: string; updatedAt: Date; primaryWallet: string | null };
}
