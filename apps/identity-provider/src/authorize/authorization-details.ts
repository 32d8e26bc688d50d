import { presetDefinition } from '@svc/presets';
import {
  type CredentialAuthorizationDetail,
  type GrantedCredentialDetail,
  OPENID_CREDENTIAL,
  type Scope,
  type WalletCredentialType,
  walletConfiguration,
  withImplied,
  ZCredentialAuthorizationDetail,
} from '@svc/schemas';
import { RedirectableError } from '../errors.js';

/** At most this many credentials in one authorization: a wallet asks for what it will fetch now. */
const MAX_DETAILS = 6;

const invalid = (why: string) => new RedirectableError('invalid_authorization_details', why);

/**
 * RFC 9396 `authorization_details` as OpenID4VCI 1.0 §5.1.1 uses them: credentials of the
 * configured credential issuer a wallet asks to receive, each named by its configuration id
 * (`locations`, when given, must name that issuer). A form or query sends a JSON string, a
 * request object an array (RFC 9396 §3). Anything else, and any other type, is refused with
 * `invalid_authorization_details` (§5); the same configuration asked twice counts once.
 */
export function credentialDetails(
  raw: string | unknown[] | undefined,
  credentialIssuer: { url: string } | undefined,
  allowedScopes: readonly string[],
): CredentialAuthorizationDetail[] | undefined {
  if (raw === undefined) return undefined;
  let parsed: unknown = raw;
  if (typeof raw === 'string') {
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw invalid('authorization_details must be a JSON array of objects');
    }
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw invalid('authorization_details must be a non-empty JSON array of objects');
  if (parsed.length > MAX_DETAILS) throw invalid(`authorization_details may name at most ${MAX_DETAILS} credentials`);
  const allowed = withImplied(allowedScopes);
  const details = new Map<string, CredentialAuthorizationDetail>();
  for (const [i, item] of parsed.entries()) {
    const type = (item as { type?: unknown } | null)?.type;
    if (type !== OPENID_CREDENTIAL) throw invalid(`authorization_details[${i}].type must be ${OPENID_CREDENTIAL} (the only type this server grants)`);
    if (!credentialIssuer) throw invalid('This server authorizes no credential issuer: openid_credential is not available here');
    const detail = ZCredentialAuthorizationDetail.safeParse(item);
    if (!detail.success) {
      const issue = detail.error.issues[0]!;
      throw invalid(`authorization_details[${i}]${issue.path.map((p) => `.${String(p)}`).join('')}: ${issue.message}`);
    }
    const { credential_configuration_id: id, locations } = detail.data;
    const configuration = walletConfiguration(id);
    if (!configuration) throw invalid(`authorization_details[${i}].credential_configuration_id: ${id} is not a credential the issuer offers`);
    // A credential carries the person's data: the client must be one that may ask for that data at all.
    const missing = scopesOf(configuration.type).filter((scope) => !allowed.includes(scope as Scope));
    if (missing.length)
      throw invalid(
        `authorization_details[${i}]: this client may not ask for a ${id} credential: its data needs the scope ${missing.join(', ')}, which the client is not registered for`,
      );
    if (locations && !locations.every((l) => l === credentialIssuer.url))
      throw invalid(`authorization_details[${i}].locations: this server authorizes credentials of ${credentialIssuer.url} only`);
    details.set(id, { type: OPENID_CREDENTIAL, credential_configuration_id: id, locations: [credentialIssuer.url] });
  }
  return [...details.values()];
}

/** The scopes that cover the presets a credential type's claims are read from. */
const scopesOf = (type: WalletCredentialType) => [
  ...new Set(type.claims.flatMap((c) => (c.preset ? [presetDefinition(c.preset)?.scope ?? `(no preset ${c.preset})`] : []))),
];

/**
 * A request's credential scopes as the authorization details they stand for, held to the same
 * rule: the client must be one that may ask for the data the credential's claims come from.
 */
export function credentialScopeDetails(
  scopes: readonly string[],
  credentialIssuer: { url: string } | undefined,
  allowedScopes: readonly string[],
): CredentialAuthorizationDetail[] {
  if (!credentialIssuer) return [];
  const allowed = withImplied(allowedScopes);
  return scopes.map((id) => {
    const missing = scopesOf(walletConfiguration(id)!.type).filter((scope) => !allowed.includes(scope as Scope));
    if (missing.length)
      throw new RedirectableError(
        'invalid_scope',
        `This client may not ask for a ${id} credential: its data needs the scope ${missing.join(', ')}, which the client is not registered for`,
      );
    return { type: OPENID_CREDENTIAL, credential_configuration_id: id, locations: [credentialIssuer.url] };
  });
}

/**
 * The credentials a request asks for, by authorization_details and by scope: asked both ways, one
 * counts once. The cap holds for them together, as for authorization_details alone (with the same
 * error), or a wallet could ask for every configuration by scope.
 */
export const mergedDetails = (...lists: (CredentialAuthorizationDetail[] | undefined)[]): CredentialAuthorizationDetail[] | undefined => {
  const all = lists.flatMap((l) => l ?? []);
  if (all.length === 0) return lists.some((l) => l !== undefined) ? [] : undefined;
  const merged = [...new Map(all.map((d) => [d.credential_configuration_id, d])).values()];
  if (merged.length > MAX_DETAILS)
    throw invalid(`A request may name at most ${MAX_DETAILS} credentials, by authorization_details and credential scopes together`);
  return merged;
};

/**
 * The details as granted, for the token response and introspection (OpenID4VCI 1.0 §6.2): each
 * configuration is one dataset, named by its configuration id, which the wallet then sends as
 * `credential_identifier`.
 */
export const grantedDetails = (details: CredentialAuthorizationDetail[]): GrantedCredentialDetail[] =>
  details.map((d) => ({ ...d, credential_identifiers: [d.credential_configuration_id] }));

/** The details an authorization row holds (JSON written by this server), or none. */
export const storedDetails = (value: unknown): CredentialAuthorizationDetail[] => (Array.isArray(value) ? (value as CredentialAuthorizationDetail[]) : []);
