import type { Db } from '@svc/db';
import { isUuid } from '@svc/schemas';
import { generateClientSecret, hashClientSecret, verifyClientSecret } from '@svc/secrets';
import { inTransaction, type AdminContext } from './context.js';
import { AdminError } from './errors.js';
import { linkApprovalEventsEndpoint } from './webhooks.js';

/**
 * The credential issuer's client at the identity provider unless another is named: a fixed id,
 * so that every deployment's settings can name it before it exists (the compose file and the
 * Kubernetes manifests do) and a later link finds it by its unique id. A generated client id
 * (`svc_client_` and 20 letters or digits) never takes this one.
 */
export const CREDENTIAL_ISSUER_CLIENT_ID = 'svc_client_credential_issuer';
const CLIENT_ID_FORM = /^svc_client_[A-Za-z0-9_]{8,89}$/;
const CLIENT_SECRET_FORM = /^[\x21-\x7e]{32,200}$/;
const LINK_LOCK = 'admin:credential-issuer-link';

export interface LinkIssuerInput {
  /** The credential issuer's public URL: the identity provider's CREDENTIAL_ISSUER_URL, and where its approval-events endpoint is. */
  issuerUrl: string;
  /** The identity provider's public URL (its issuer identifier): the credential issuer's AUTHORIZATION_SERVER_URL. */
  authorizationServerUrl: string;
  /** The issuer's client: found by this id, or made with it (default CREDENTIAL_ISSUER_CLIENT_ID). */
  clientId?: string | undefined;
  /**
   * The organization that owns the client and what wallets receive through the identity provider
   * (WALLET_ORGANIZATION_ID): the client's when it exists (it must be this one), else this one
   * (made with this id when there is none), else a new one.
   */
  organization?: string | undefined;
  /** The client's secret as the caller keeps it: the client is made with it, or it is checked against the client's. */
  clientSecret?: string | undefined;
  /** Make the client's secret `clientSecret` when it is not (a new one when none is given). */
  rotateClientSecret?: boolean | undefined;
  /** The approval-events endpoint's secret as the caller keeps it: made with it, or checked. */
  webhookSecret?: string | undefined;
  rotateWebhookSecret?: boolean | undefined;
  /** The endpoint for the identity provider's wallet_approval.* events (default true). */
  approvalEvents?: boolean | undefined;
}

export interface IssuerLink {
  organizationId: string;
  clientId: string;
  /** The client's secret: as given, or made by this call; undefined when neither (it is stored hashed). */
  clientSecret: string | undefined;
  /** Whether the caller gave clientSecret (it is not printed back then). */
  clientSecretGiven: boolean;
  approvalEvents: { id: string; secret: string; secretGiven: boolean } | undefined;
  /** What this call made: organization, client, approval_events_endpoint. */
  made: string[];
  /** What it changed of what it found: client_secret, webhook_secret, approval_events_url, approval_events. */
  updated: string[];
}

/**
 * Links the credential issuer to the identity provider, which are one deployment (OpenID4VCI's
 * authorization code flow, docs/credential-issuer.md): the issuer's confidential client at the
 * identity provider, the organization it belongs to, and that organization's webhook endpoint for
 * the approval events. The first call makes what is missing; later ones find them and change
 * only what the input says differently, so it runs on every start (`npm start`, the compose
 * `link` step, the Kubernetes Job). Calls are serialized by an advisory lock: two at once make one
 * set. The client's secret is stored hashed, so it is known only where it is given or made now.
 */
export async function linkCredentialIssuer(ctx: AdminContext, input: LinkIssuerInput): Promise<IssuerLink> {
  if (ctx.environment === 'sandbox') throw new AdminError('the sandbox has no credential issuer: link production’s identity provider');
  for (const [url, flag] of [
    [input.issuerUrl, '--issuer-url'],
    [input.authorizationServerUrl, '--idp-url'],
  ] as const) {
    if (!URL.canParse(url) || !['http:', 'https:'].includes(new URL(url).protocol)) throw new AdminError(`${flag} must be an http(s) URL`);
  }
  if (input.clientSecret !== undefined && !CLIENT_SECRET_FORM.test(input.clientSecret))
    throw new AdminError('the client secret must be 32 to 200 printable characters without spaces: openssl rand -hex 32');
  if (input.organization !== undefined && !isUuid(input.organization)) throw new AdminError('--org must be an organization id (a UUID)');
  return inTransaction(ctx, async (tx) => {
    await (tx.db as Db).$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${LINK_LOCK}))`;
    return linkIn(tx, input);
  });
}

async function linkIn(ctx: AdminContext, input: LinkIssuerInput): Promise<IssuerLink> {
  const clientId = input.clientId ?? CREDENTIAL_ISSUER_CLIENT_ID;
  const made: string[] = [];
  const updated: string[] = [];
  const found = await ctx.db.application.findUnique({ where: { clientId } });
  let organizationId: string;
  let clientSecret = input.clientSecret;
  if (found) {
    if (found.status !== 'active') throw new AdminError(`the credential issuer’s client ${clientId} is revoked: name another with --client-id`);
    if (!found.clientSecretHash) throw new AdminError(`${clientId} authenticates without a secret: the credential issuer’s client needs one`);
    if (input.organization !== undefined && input.organization !== found.organizationId)
      throw new AdminError(`${clientId} belongs to organization ${found.organizationId}, not ${input.organization}`);
    organizationId = found.organizationId;
    const differs = clientSecret !== undefined && !verifyClientSecret(clientSecret, found.clientSecretHash);
    if (differs && !input.rotateClientSecret) throw new AdminError(`the client secret given is not ${clientId}’s (--rotate-client-secret makes it so)`);
    if (input.rotateClientSecret && (differs || clientSecret === undefined)) {
      clientSecret ??= generateClientSecret().secret;
      await ctx.db.application.update({ where: { id: found.id }, data: { clientSecretHash: hashClientSecret(clientSecret) } });
      updated.push('client_secret');
    }
  } else {
    if (!CLIENT_ID_FORM.test(clientId)) throw new AdminError('--client-id must be svc_client_ and 8 to 89 letters, digits or _');
    organizationId = await organizationFor(ctx, input.organization, made);
    clientSecret ??= generateClientSecret().secret;
    // It only authenticates (introspection, the approvals it asks about): no redirect URI, so no
    // authorization request can name it.
    await ctx.db.application.create({
      data: {
        clientId,
        clientSecretHash: hashClientSecret(clientSecret),
        name: 'Credential issuer',
        organizationId,
        redirectUris: [],
        allowedScopes: ['openid'],
        tokenEndpointAuthMethod: 'client_secret_basic',
      },
    });
    made.push('client');
  }
  let approvalEvents: IssuerLink['approvalEvents'];
  if (input.approvalEvents !== false) {
    const endpoint = await linkApprovalEventsEndpoint(ctx, {
      org: organizationId,
      issuerUrl: input.issuerUrl,
      secret: input.webhookSecret,
      rotate: input.rotateWebhookSecret,
    });
    if (endpoint.made) made.push('approval_events_endpoint');
    updated.push(...endpoint.updated);
    approvalEvents = { id: endpoint.id, secret: endpoint.secret, secretGiven: input.webhookSecret !== undefined };
  }
  return { organizationId, clientId, clientSecret, clientSecretGiven: input.clientSecret !== undefined, approvalEvents, made, updated };
}

/** The organization named (made with that id when there is none), or a new one; it has no owner: `org:add-member` gives it people. */
async function organizationFor(ctx: AdminContext, id: string | undefined, made: string[]): Promise<string> {
  if (id !== undefined && (await ctx.db.organization.findUnique({ where: { id } }))) return id;
  const org = await ctx.db.organization.create({ data: { ...(id ? { id } : {}), name: 'Credential issuer' } });
  made.push('organization');
  return org.id;
}

/**
 * What each service is told, as environment variables: the link's ids and URLs, and the secrets
 * the caller did not give (a client secret only when it was made or rotated by this call).
 */
export function issuerLinkSettings(link: IssuerLink, input: Pick<LinkIssuerInput, 'issuerUrl' | 'authorizationServerUrl'>) {
  const trim = (url: string) => url.replace(/\/+$/, '');
  return {
    identity_provider: { CREDENTIAL_ISSUER_URL: trim(input.issuerUrl), CREDENTIAL_ISSUER_CLIENT_ID: link.clientId },
    credential_issuer: {
      AUTHORIZATION_SERVER_URL: trim(input.authorizationServerUrl),
      AUTHORIZATION_SERVER_CLIENT_ID: link.clientId,
      ...(link.clientSecret && !link.clientSecretGiven ? { AUTHORIZATION_SERVER_CLIENT_SECRET: link.clientSecret } : {}),
      WALLET_ORGANIZATION_ID: link.organizationId,
      ...(link.approvalEvents && !link.approvalEvents.secretGiven ? { AUTHORIZATION_SERVER_WEBHOOK_SECRET: link.approvalEvents.secret } : {}),
    },
  };
}
