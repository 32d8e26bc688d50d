import { z } from 'zod';

/**
 * The grants the token endpoint takes (RFC 6749 §4.1, §6 and §4.4): the one list that discovery,
 * client metadata, the developer API and the admin CLI read. The identity provider holds one
 * module per name, and a test there keeps its modules and this list the same. No password or
 * implicit grant: RFC 9700 §2.4 and §2.1.2 retire them.
 */
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];
export const ZGrantType = z.enum(GRANT_TYPES);

// A token for the client itself needs a client that can prove who it is: a public one cannot.
const AUTHENTICATED_ONLY: readonly GrantType[] = ['client_credentials'];

/**
 * The grant types a client is registered with, by how it authenticates at the token endpoint
 * (`none`: a public client). Every client may refresh, and every one that authenticates may use
 * client_credentials (RFC 7591 §3.2.1 lets a server substitute the values it registers).
 */
export const grantTypesFor = (tokenEndpointAuthMethod: string): GrantType[] =>
  GRANT_TYPES.filter((grant) => tokenEndpointAuthMethod !== 'none' || !AUTHENTICATED_ONLY.includes(grant));

/** `a, b or c`, for messages that name every grant type. */
export const grantTypesInWords = (grants: readonly string[] = GRANT_TYPES) =>
  grants.length > 1 ? `${grants.slice(0, -1).join(', ')} or ${grants.at(-1)}` : (grants[0] ?? '');
