/**
 * What a wallet's credential request ends in: the credential, or a batch of copies of it, signed,
 * recorded and told to the organization's webhooks in one transaction. Each copy of a batch is
 * bound to a key of its own and has its own salts, `jti` and status entry, so that no two can be
 * linked; the batch is one record (its first copy's), which revokes them all.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { isUniqueViolation, outboxInsert } from '@svc/db';
import { webhookEvent } from '@svc/schemas';
import { walletCredentialValiditySeconds } from '../../config.js';
import { alreadyIssuedOnApproval } from '../../issuance/errors.js';
import { type IssueContext, issueGiven, iso } from '../../issuance/issue-credential.js';
import { allocateStatusIndex, BITSTRING_ENTRY } from '../../status-lists/status-lists.js';
import { CREDENTIALS_V2, UNDEFINED_TERMS_V2 } from '../../vc/document-loader.js';
import { configurationById } from '../metadata/configurations.js';
import { didJwkOf, type Holder } from './holder-proofs.js';
import { issuedMdocDigest } from './formats/mdoc.js';
import { SIGNED_FORMATS } from './formats/signed-formats.js';
import { tokenStatusListUrl } from './token-status-lists.js';

/** What a credential is issued on: an offer, or a person's approval at the identity provider. */
export interface IssueSource {
  configurationId: string;
  claims: unknown;
  apiKeyId: string | null;
  organizationId: string;
  subjectAddress: string | null;
  /** The approval at the identity provider it is issued on, if it is (`<authorization id>#<configuration id>`). */
  approval?: string;
}

const HOUR_MS = 3600 * 1000;
const toHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

/** What a wallet's notifications name the credentials of one response by (OpenID4VCI 1.0 §8.3, §11). */
const newNotificationId = () => randomBytes(18).toString('base64url');

/**
 * The credential for each holder key (one, or a batch), signed, recorded and told; it ends after
 * the issuer's validity, or at `endsBy` if that is sooner. `recordId` is the record's: the first
 * copy's, which the offer or the approval already names.
 */
export async function issueFor(deps: IssueContext, source: IssueSource, holders: Holder[], recordId: string, endsBy?: Date) {
  const issuer = deps.config.publicUrl;
  const configuration = configurationById(source.configurationId)!;
  const now = deps.clock.now();
  const validity = walletCredentialValiditySeconds(deps.config);
  const expiresAt = new Date(Math.min(now.getTime() + validity * 1000, endsBy?.getTime() ?? Number.POSITIVE_INFINITY));
  const claims = source.claims as Record<string, unknown>;
  const notificationId = newNotificationId();
  if (configuration.format === 'ldp_vc') {
    // A W3C credential about the holder's did:jwk, signed bbs-2023 as every credential of this
    // issuer (the same path as the VC API, which records it and tells the webhooks): the holder
    // derives what to show; the binding, the issuer and the status are always disclosed. One per
    // request: every presentation derived from it is unlinkable already.
    const [holder] = holders as [Holder];
    const key = await deps.keys.current();
    const jti = `urn:uuid:${recordId}`;
    const credential = await issueGiven(
      deps,
      { apiKeyId: source.apiKeyId, organizationId: source.organizationId, approval: source.approval },
      {
        '@context': [CREDENTIALS_V2, UNDEFINED_TERMS_V2],
        id: jti,
        type: ['VerifiableCredential', configuration.vcType],
        issuer: key.controller,
        validFrom: iso(now),
        validUntil: iso(expiresAt),
        credentialSubject: { id: holder.did ?? didJwkOf(holder.jwk), ...claims },
      },
      { credentialStatus: { type: BITSTRING_ENTRY }, mandatoryPointers: ['/credentialSubject/id'], subjectAddress: source.subjectAddress ?? '' },
    );
    await deps.db.issuedCredential.update({
      where: { organizationId_credentialId: { organizationId: source.organizationId, credentialId: jti } },
      data: { notificationId },
    });
    return { credentials: [{ credential }], notification_id: notificationId };
  }
  const signer = await deps.keys.jwtSigner();
  const format = configuration.format;
  // Times to the hour, so that a credential's (and each copy's) do not single it out among those
  // issued that hour; an mdoc, which carries no status a reader can check, lives MDOC_VALIDITY_SECONDS
  // at most; and nothing outlives the certificate of the key that signs it.
  const issuedAt = toHour(now);
  const validUntil = toHour(
    new Date(
      Math.min(
        expiresAt.getTime(),
        format === 'mso_mdoc' ? now.getTime() + deps.config.MDOC_VALIDITY_SECONDS * 1000 : Number.POSITIVE_INFINITY,
        signer.certifiedUntil.getTime(),
      ),
    ),
  );
  const copies: { id: string; place: { listId: string; index: number }; credential: string }[] = [];
  for (const [i, holder] of holders.entries()) {
    const id = i === 0 ? recordId : randomUUID();
    const place = await allocateStatusIndex(deps.db, deps.sql, issuer, 'token');
    const credential = await SIGNED_FORMATS[format](
      {
        issuer,
        configuration,
        jti: `urn:uuid:${id}`,
        claims,
        holderKey: holder.jwk,
        status: { idx: place.index, uri: tokenStatusListUrl(issuer, place.listId) },
        issuedAt,
        expiresAt: validUntil,
      },
      signer,
    );
    copies.push({ id, place, credential });
  }
  const lead = `urn:uuid:${recordId}`;
  try {
    await deps.db.$transaction(async (tx) => {
      await tx.issuedCredential.createMany({
        data: copies.map(({ id, place }, i) => ({
          id,
          credentialId: `urn:uuid:${id}`,
          apiKeyId: source.apiKeyId,
          organizationId: source.organizationId,
          subjectAddress: source.subjectAddress ?? '',
          issuerDid: issuer,
          verificationMethod: signer.kid,
          claimNames: Object.keys(claims),
          validFrom: issuedAt,
          validUntil,
          statusListId: place.listId,
          statusListIndex: place.index,
          format,
          ...(format === 'mso_mdoc' ? { signatureDigest: issuedMdocDigest(copies[i]!.credential, configuration.mdoc!.doctype) } : {}),
          // The record is the first copy: it holds the approval and the notification id, the others point at it.
          ...(i === 0 ? { approval: source.approval ?? null, notificationId } : { batchOf: recordId }),
        })),
      });
      await outboxInsert(tx, { organizationId: source.organizationId, event: webhookEvent('credential.issued', { credential_id: lead }), subject: lead });
    });
  } catch (err) {
    // Another request on the same approval recorded its credential first: this one was never recorded, so it is not issued.
    if (source.approval && isUniqueViolation(err)) throw alreadyIssuedOnApproval();
    throw err;
  }
  return { credentials: copies.map(({ credential }) => ({ credential })), notification_id: notificationId };
}
