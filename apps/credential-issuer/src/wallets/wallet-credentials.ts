/**
 * The credential endpoint's work (OpenID4VCI 1.0 §8): one credential per offer, bound to the key
 * the wallet proved it holds: an SD-JWT VC with a place in a Token Status List, or a bbs-2023
 * credential about the key's did:jwk with a Bitstring Status List entry, recorded like every credential
 * this issuer signs (so `GET /credentials` lists it and `POST /credentials/revoke` revokes it) and
 * told to the organization's webhooks in the same transaction.
 */
import { randomUUID } from 'node:crypto';
import { outboxInsert } from '@svc/db';
import type { CoreDeps } from '@svc/runtime';
import type { ZCredentialRequest } from '@svc/schemas';
import type { z } from 'zod';
import { accessTokenMissing, invalidAccessToken, invalidCredentialRequest, invalidProof, unknownConfiguration } from '../errors.js';
import { type IssueContext, issueGiven, iso } from '../services/issue-credential.js';
import { allocateStatusIndex, BITSTRING_ENTRY } from '../services/status-lists.js';
import { CREDENTIALS_V2, UNDEFINED_TERMS_V2 } from '../vc/document-loader.js';
import { configurationById, vctOf } from './configurations.js';
import { didJwkOf, type Holder, holderKeyOf } from './holder-proofs.js';
import { offerOfAccessToken } from './offers.js';
import { issueSdJwtVc } from './sd-jwt-vc.js';
import { tokenStatusListUrl } from './token-status-lists.js';

/** A wallet credential's life when CREDENTIAL_VALIDITY_SECONDS is not set: a year, then the wallet asks again. */
export const WALLET_CREDENTIAL_VALIDITY_SECONDS = 365 * 24 * 3600;

/** What issuing needs: the issuer's own (signing pool and keys included, for ldp_vc), and the nonce store. */
export interface WalletIssueDeps extends IssueContext {
  cache: CoreDeps['store']['cache'];
}

export async function issueToWallet(deps: WalletIssueDeps, accessToken: string | undefined, body: z.output<typeof ZCredentialRequest>) {
  const issuer = deps.config.publicUrl;
  if (!accessToken) throw accessTokenMissing();
  const offer = await offerOfAccessToken({ db: deps.db, publicUrl: issuer, now: () => deps.clock.now() }, accessToken);
  if (!offer) throw invalidAccessToken();
  if (body.credential_identifier !== undefined)
    throw invalidCredentialRequest('This issuer names credentials by credential_configuration_id (no credential_identifier is issued)');
  if (body.credential_configuration_id === undefined) throw invalidCredentialRequest('credential_configuration_id is required');
  if (body.credential_configuration_id !== offer.configurationId) throw unknownConfiguration(body.credential_configuration_id);
  if (body.proof !== undefined) throw invalidCredentialRequest('Send the key proof as proofs: {"jwt": [<proof>]} (OpenID4VCI 1.0)');
  if (!body.proofs) throw invalidProof('A key proof is required: proofs: {"jwt": [<proof>]}');
  if (body.proofs.jwt.length !== 1) throw invalidCredentialRequest('One proof per request: this issuer issues one credential per offer');
  if (offer.credentialId) throw invalidCredentialRequest('The credential of this offer was already issued');

  const holder = await holderKeyOf(body.proofs.jwt[0]!, { audience: issuer, cache: deps.cache, now: deps.clock.now() });
  const recordId = randomUUID();
  const jti = `urn:uuid:${recordId}`;
  // The offer is claimed before any work: of parallel requests one goes on, and the others take
  // no status index and sign nothing. Given back if the work fails, so the wallet can try again.
  const claimed = await deps.db.credentialOffer.updateMany({ where: { id: offer.id, credentialId: null }, data: { credentialId: jti } });
  if (claimed.count === 0) throw invalidCredentialRequest('The credential of this offer was already issued');
  try {
    return await issueClaimed(deps, offer, holder, recordId);
  } catch (err) {
    await deps.db.credentialOffer.updateMany({ where: { id: offer.id, credentialId: jti }, data: { credentialId: null } });
    throw err;
  }
}

type Offer = NonNullable<Awaited<ReturnType<typeof offerOfAccessToken>>>;

/** The offer's credential, once this request holds the offer: signed, recorded and told. */
async function issueClaimed(deps: WalletIssueDeps, offer: Offer, holder: Holder, recordId: string) {
  const issuer = deps.config.publicUrl;
  const jti = `urn:uuid:${recordId}`;
  const configuration = configurationById(offer.configurationId)!;
  const now = deps.clock.now();
  const validity = deps.config.CREDENTIAL_VALIDITY_SECONDS ?? WALLET_CREDENTIAL_VALIDITY_SECONDS;
  const expiresAt = new Date(now.getTime() + validity * 1000);
  const claims = offer.claims as Record<string, unknown>;
  if (configuration.format === 'ldp_vc') {
    // A W3C credential about the holder's did:jwk, signed bbs-2023 as every credential of this
    // issuer (the same path as the VC API, which records it and tells the webhooks): the holder
    // derives what to show; the binding, the issuer and the status are always disclosed.
    const key = await deps.keys.current();
    const credential = await issueGiven(
      deps,
      { apiKeyId: offer.apiKeyId, organizationId: offer.organizationId },
      {
        '@context': [CREDENTIALS_V2, UNDEFINED_TERMS_V2],
        id: jti,
        type: ['VerifiableCredential', configuration.vcType],
        issuer: key.controller,
        validFrom: iso(now),
        validUntil: iso(expiresAt),
        credentialSubject: { id: holder.did ?? didJwkOf(holder.jwk), ...claims },
      },
      { credentialStatus: { type: BITSTRING_ENTRY }, mandatoryPointers: ['/credentialSubject/id'], subjectAddress: offer.subjectAddress ?? '' },
    );
    return { credentials: [{ credential }] };
  }
  const place = await allocateStatusIndex(deps.db, deps.sql, issuer, 'token');
  const signer = await deps.keys.jwtSigner();
  const credential = await issueSdJwtVc(
    {
      issuer,
      vct: vctOf(issuer, configuration),
      jti,
      claims,
      holderKey: holder.jwk,
      status: { idx: place.index, uri: tokenStatusListUrl(issuer, place.listId) },
      issuedAt: now,
      expiresAt,
    },
    signer,
  );
  await deps.db.$transaction(async (tx) => {
    await tx.issuedCredential.create({
      data: {
        id: recordId,
        credentialId: jti,
        apiKeyId: offer.apiKeyId,
        organizationId: offer.organizationId,
        subjectAddress: offer.subjectAddress ?? '',
        issuerDid: issuer,
        verificationMethod: signer.kid,
        claimNames: Object.keys(claims),
        validFrom: now,
        validUntil: expiresAt,
        statusListId: place.listId,
        statusListIndex: place.index,
        format: 'dc+sd-jwt',
      },
    });
    await outboxInsert(tx, { organizationId: offer.organizationId, type: 'credential.issued', data: { credential_id: jti }, subject: jti });
  });
  return { credentials: [{ credential }] };
}
