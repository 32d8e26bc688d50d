/**
 * Credential offers with a pre-authorized code (OpenID4VCI 1.0 §4.1, §6.1). An integrator makes
 * one for a person; the person's wallet fetches it by its URI, trades the code (and the
 * transaction code, when asked for) for an access token once, and the token for one credential.
 * Nothing here is stored in the clear: the offer URI's handle, the pre-authorized code derived
 * from it, the transaction code (hashed with the code, so a database dump does not give it up to
 * a search of its million values) and the access token are hashes in the row.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { Db, Prisma } from '@svc/db';
import { PRE_AUTHORIZED_CODE_GRANT, type ZCreateCredentialOfferRequest } from '@svc/schemas';
import { constantTimeEqual, sha256Base64Url } from '@svc/secrets';
import type { z } from 'zod';
import { invalidField } from '../../http/errors.js';
import { invalidGrant, oauthInvalidRequest, offerNotFound } from '../errors.js';
import type { Caller } from '../../issuance/issue-credential.js';
import { configurationById } from '../metadata/configurations.js';

export const OFFER_TTL_SECONDS = 300;
export const ACCESS_TOKEN_TTL_SECONDS = 300;
export const TX_CODE_LENGTH = 6;
/** Guesses of a transaction code an offer takes in all; then it is spent. */
export const TX_CODE_ATTEMPTS = 5;

const codeOf = (handle: string) => sha256Base64Url(`pre-authorized code:${handle}`);
const txCodeHash = (code: string, txCode: string) => sha256Base64Url(`tx_code:${code}:${txCode}`);

export interface OfferDeps {
  db: Db;
  publicUrl: string;
  now: () => Date;
  /** The identity provider's issuer URL, when it authorizes wallets too. */
  authorizationServer?: string | undefined;
}

function offerJson(deps: OfferDeps, configurationId: string, code: string, withTxCode: boolean) {
  return {
    credential_issuer: deps.publicUrl,
    credential_configuration_ids: [configurationId],
    grants: {
      [PRE_AUTHORIZED_CODE_GRANT]: {
        'pre-authorized_code': code,
        // With two authorization servers in the metadata, the grant names its own: this issuer.
        ...(deps.authorizationServer ? { authorization_server: deps.publicUrl } : {}),
        ...(withTxCode
          ? { tx_code: { input_mode: 'numeric' as const, length: TX_CODE_LENGTH, description: 'The code the service that offered this credential gave you' } }
          : {}),
      },
    },
  };
}

export const offerUri = (publicUrl: string, handle: string) => `${publicUrl}/credential-offers/${handle}`;

export async function createOffer(deps: OfferDeps, caller: Caller & { apiKeyId: string }, body: z.output<typeof ZCreateCredentialOfferRequest>) {
  const configuration = configurationById(body.credential_configuration_id)!;
  const claims = configuration.schema.safeParse(body.claims);
  if (!claims.success) {
    const issue = claims.error.issues[0]!;
    throw invalidField(['body.claims', ...issue.path.map(String)].join('.'), issue.code === 'unrecognized_keys' ? issue.message : issue.message);
  }
  const handle = randomBytes(32).toString('base64url');
  const code = codeOf(handle);
  const txCode = body.tx_code !== false ? String(randomInt(10 ** TX_CODE_LENGTH)).padStart(TX_CODE_LENGTH, '0') : undefined;
  const expiresAt = new Date(deps.now().getTime() + OFFER_TTL_SECONDS * 1000);
  const id = randomUUID();
  await deps.db.credentialOffer.create({
    data: {
      id,
      organizationId: caller.organizationId,
      apiKeyId: caller.apiKeyId,
      configurationId: configuration.id,
      claims: claims.data as Prisma.InputJsonObject,
      subjectAddress: body.subject_address ?? null,
      handleHash: sha256Base64Url(handle),
      preAuthorizedCodeHash: sha256Base64Url(code),
      txCodeHash: txCode ? txCodeHash(code, txCode) : null,
      expiresAt,
    },
  });
  const uri = offerUri(deps.publicUrl, handle);
  return {
    id,
    credential_offer: offerJson(deps, configuration.id, code, txCode !== undefined),
    credential_offer_uri: uri,
    offer_link: `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(uri)}`,
    ...(txCode ? { tx_code: txCode } : {}),
    expires_at: expiresAt.toISOString(),
  };
}

/** The offer its URI serves, while it can still be taken. */
export async function offerByHandle(deps: OfferDeps, handle: string) {
  const row = await deps.db.credentialOffer.findUnique({ where: { handleHash: sha256Base64Url(handle) } });
  if (!row || row.redeemedAt || row.expiresAt <= deps.now() || row.txCodeAttempts >= TX_CODE_ATTEMPTS) throw offerNotFound();
  return offerJson(deps, row.configurationId, codeOf(handle), row.txCodeHash !== null);
}

/**
 * The token endpoint's pre-authorized code grant: one access token per offer, ever. A wrong
 * transaction code spends one of the offer's attempts before it is compared (parallel guesses
 * cannot share one check), and the last attempt spends the offer. With `dpopJkt` (the key of a
 * DPoP proof sent with the request) the token is bound to that key (RFC 9449 §5).
 */
export async function exchangePreAuthorizedCode(deps: OfferDeps, code: string | undefined, txCode: string | undefined, dpopJkt?: string) {
  if (!code) throw oauthInvalidRequest('pre-authorized_code is required');
  const now = deps.now();
  const spent = () => invalidGrant('The pre-authorized code is unknown, expired or already used');
  const row = await deps.db.credentialOffer.findUnique({ where: { preAuthorizedCodeHash: sha256Base64Url(code) } });
  if (!row || row.redeemedAt || row.expiresAt <= now) throw spent();
  if (row.txCodeHash) {
    if (txCode === undefined) throw oauthInvalidRequest('tx_code is required: this offer asks for a transaction code');
    const [attempt] = await deps.db.$queryRaw<{ attempts: number }[]>`
      UPDATE "CredentialOffer" SET "txCodeAttempts" = "txCodeAttempts" + 1
       WHERE "id" = ${row.id}::uuid AND "redeemedAt" IS NULL AND "txCodeAttempts" < ${TX_CODE_ATTEMPTS}
       RETURNING "txCodeAttempts" AS attempts`;
    if (!attempt) throw invalidGrant('Too many wrong transaction codes: this offer is spent; ask for a new one');
    if (!constantTimeEqual(txCodeHash(code, txCode), row.txCodeHash)) {
      if (attempt.attempts < TX_CODE_ATTEMPTS) throw invalidGrant('The transaction code is wrong');
      // The last attempt: the offer ends now, its URI too, so no wallet asks the person for a code that cannot work.
      await deps.db.credentialOffer.updateMany({ where: { id: row.id, redeemedAt: null }, data: { expiresAt: now } });
      throw invalidGrant('The transaction code is wrong, for the last time: this offer is spent; ask for a new one');
    }
  } else if (txCode !== undefined) {
    throw oauthInvalidRequest('tx_code was not asked for by this offer');
  }
  const accessToken = randomBytes(32).toString('base64url');
  const taken = await deps.db.credentialOffer.updateMany({
    where: { id: row.id, redeemedAt: null, expiresAt: { gt: now } },
    data: {
      redeemedAt: now,
      accessTokenHash: sha256Base64Url(accessToken),
      accessTokenExpiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000),
      dpopJkt: dpopJkt ?? null,
    },
  });
  if (taken.count === 0) throw spent();
  return { access_token: accessToken, token_type: dpopJkt ? ('DPoP' as const) : ('Bearer' as const), expires_in: ACCESS_TOKEN_TTL_SECONDS };
}

/** The offer an access token was issued for, while the token is valid; undefined otherwise. */
export async function offerOfAccessToken(deps: OfferDeps, accessToken: string) {
  const row = await deps.db.credentialOffer.findUnique({ where: { accessTokenHash: sha256Base64Url(accessToken) } });
  return row?.accessTokenExpiresAt && row.accessTokenExpiresAt > deps.now() ? row : undefined;
}
