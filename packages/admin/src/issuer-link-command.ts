import type { AdminContext } from './context.js';
import type { LinkIssuerInput } from './issuer-link.js';

/**
 * `issuer:link`: what linkCredentialIssuer did, and both services' settings. The module is loaded
 * on use: it seals webhook secrets, which loads the signing-key code every other command skips.
 */
export async function linkIssuerCommand(ctx: AdminContext, input: LinkIssuerInput) {
  const { issuerLinkSettings, linkCredentialIssuer } = await import('./issuer-link.js');
  const link = await linkCredentialIssuer(ctx, input);
  return {
    made: link.made,
    updated: link.updated,
    organization_id: link.organizationId,
    client_id: link.clientId,
    approval_events_endpoint_id: link.approvalEvents?.id ?? null,
    ...issuerLinkSettings(link, input),
    ...(link.clientSecret === undefined
      ? {
          note: 'AUTHORIZATION_SERVER_CLIENT_SECRET is stored hashed and shown only when made: keep it where the credential issuer reads it, or make a new one with --rotate-client-secret',
        }
      : {}),
  };
}

/** The settings as `VAR=value` lines under a comment naming the service, ready for an env file. */
export function issuerLinkEnvLines(result: Awaited<ReturnType<typeof linkIssuerCommand>>): string {
  const block = (service: string, settings: Record<string, string>) => [`# ${service}`, ...Object.entries(settings).map(([k, v]) => `${k}=${v}`)];
  return `${[
    ...block('identity-provider', result.identity_provider),
    ...block('credential-issuer', result.credential_issuer),
    ...('note' in result ? [`# ${result.note}`] : []),
  ].join('\n')}\n`;
}
