import { randomBase62, sha256Hex } from '@svc/secrets';
import { compactDecrypt, importJWK } from 'jose';
import { pemOf } from '../../keys/certificates.js';
import { signedTokenStatusList, tokenStatusListUrl } from '../../openid4vci/credentials/token-status-lists.js';
import { fetchStatusList, StatusListUnavailable } from '../../status-lists/foreign-status-lists.js';
import { verifyPresentation } from '../../verification/verify-presentation.js';
import type { Openid4vpDeps } from '../deps.js';
import { alreadyAnswered, undecryptableAnswer } from '../errors.js';
import { type Outcome, type PresentationState, recordOutcome } from '../requests/presentation-requests.js';
import { responseKeyThumbprint } from '../requests/request-object.js';
import { dcApiSessionTranscript, redirectSessionTranscript } from './session-transcript.js';
import { anchorsOf } from '../formats/trust.js';
import { verifyAnswer, ZAnswer } from './verify-answer.js';
import { Refusal } from '../refusals.js';
import type { OwnReference, Voucher } from '../formats/presented.js';

type Pending = Extract<PresentationState, { status: 'pending' }>;

/** How the answer came: posted by the wallet to the response URI, or relayed from a page that used the DC API. */
export type Channel = { kind: 'direct_post'; responseUri: string } | { kind: 'dc_api'; origin: string };

async function decrypt(request: Pending, jwe: string): Promise<unknown> {
  // Outside the try: a key this service cannot open is its own failure, not the wallet's.
  const privateJwk = request.responseKey.privateJwk();
  try {
    const key = await importJWK(privateJwk, 'ECDH-ES');
    const { plaintext } = await compactDecrypt(jwe, key, { keyManagementAlgorithms: ['ECDH-ES'], contentEncryptionAlgorithms: ['A128GCM', 'A256GCM'] });
    return JSON.parse(new TextDecoder().decode(plaintext));
  } catch {
    throw undecryptableAnswer();
  }
}

/**
 * The wallet's answer to an open request: decrypted (one that does not decrypt is refused and
 * changes nothing), checked, and recorded (recordOutcome: verified closes the request, a third
 * refusal too). `redirectTo`: where the wallet sends the person, for a request made with a
 * redirect_uri and answered by a wallet on their device.
 */
export async function takeAnswer(
  deps: Openid4vpDeps,
  request: Pending,
  jwe: string,
  channel: Channel,
): Promise<{ outcome: Outcome; closed: boolean; redirectTo?: string }> {
  const decrypted = await decrypt(request, jwe);
  const now = deps.clock.now();
  const outcome = await outcomeOf(deps, request, decrypted, channel, now);
  // Same device (OpenID4VP 1.0 §13.3): the person comes back with a code only their browser holds,
  // and the result is read with it, so whoever passes a request link to someone else and has them
  // answer it learns nothing of their credentials.
  const redirect = channel.kind === 'direct_post' && outcome.status === 'verified' ? request.asked.redirect_uri : undefined;
  const sameDevice = redirect === undefined ? undefined : { redirect, code: randomBase62(43) };
  const recorded = await recordOutcome(deps.db, request, outcome, now, sameDevice ? sha256Hex(sameDevice.code) : null);
  if (recorded === 'not open') throw alreadyAnswered();
  const closed = recorded === 'closed';
  if (!sameDevice) return { outcome, closed };
  // Appended as it stands: the integrator's own query (a signed return URL, say) is left byte for byte.
  const separator = !sameDevice.redirect.includes('?') ? '?' : /[?&]$/.test(sameDevice.redirect) ? '' : '&';
  return { outcome, closed, redirectTo: `${sameDevice.redirect}${separator}response_code=${sameDevice.code}` };
}

/**
 * Whether one of this issuer's credentials still holds (refused when revoked), and who vouched for it: the identity provider (issued on a person's
 * approval, from their verified data) or the asking organization (its own offer). Another
 * organization's offer says only what that organization vouched for, so it answers nothing here.
 */
async function ownVoucher(db: Openid4vpDeps['db'], organizationId: string, reference: OwnReference): Promise<Voucher> {
  const where =
    'statusList' in reference
      ? { statusListId: reference.statusList.listId, statusListIndex: reference.statusList.index }
      : { signatureDigest: reference.signatureDigest };
  const record = await db.issuedCredential.findFirst({ where, select: { organizationId: true, approval: true, batchOf: true, revokedAt: true } });
  if (!record) throw new Refusal('issuer_trust', 'This issuer has no record of the credential');
  // Its record is fresher than any list: revoking a batch marks every copy, an mdoc (whose MSO carries no status) included.
  if (record.revokedAt) throw new Refusal('status', 'The credential is revoked');
  // A batch's copies point at its first, which holds the approval.
  const lead = record.batchOf ? await db.issuedCredential.findUnique({ where: { id: record.batchOf }, select: { approval: true } }) : record;
  if (lead?.approval) return 'identity_provider';
  if (record.organizationId === organizationId) return 'organization';
  throw new Refusal(
    'issuer_trust',
    'This credential was vouched for by another organization’s offer, not by the identity provider: only those or your own organization’s are accepted',
  );
}

/** Another issuer's status list (fetchStatusList), or a refusal that says why it could not be had. */
async function foreignStatusList(deps: Openid4vpDeps, uri: string): Promise<string> {
  try {
    return await fetchStatusList(deps.statusListFetch, deps.config.STATUS_LISTS_ALLOW_PRIVATE, uri);
  } catch (err) {
    if (err instanceof StatusListUnavailable) throw new Refusal('status', err.message);
    throw err;
  }
}

async function outcomeOf(deps: Openid4vpDeps, request: Pending, decrypted: unknown, channel: Channel, now: Date): Promise<Outcome> {
  const parsed = ZAnswer.safeParse(decrypted);
  if (!parsed.success)
    return { status: 'failed', errors: [{ check: 'vp_token', message: 'The answer is not {vp_token: {<credential query id>: [<presentation>]}}' }] };
  if (channel.kind === 'direct_post' && parsed.data.state !== request.state)
    return { status: 'failed', errors: [{ check: 'state', message: 'The answer’s state is not this request’s' }] };
  const signer = await deps.verifierKey.signerFor(request.asked.client_id);
  const keyThumbprint = await responseKeyThumbprint(request.responseKey.publicJwk);
  const ownLists = tokenStatusListUrl(deps.config.publicUrl, '');
  const ca = await deps.issuerCa.authority();
  const anchors = anchorsOf(pemOf(ca), deps.config.TRUSTED_ISSUER_CERTS, request.asked.trusted_issuers);
  return verifyAnswer(request.asked, parsed.data, {
    issuerUrl: deps.config.publicUrl,
    ownVoucher: (reference) => ownVoucher(deps.db, request.organizationId, reference),
    ownDid: async (did) => (await deps.trustedIssuers.trusts(did)) === 'this issuer',
    nonce: request.nonce,
    audience: channel.kind === 'dc_api' ? `origin:${channel.origin}` : signer.clientId,
    sessionTranscript:
      channel.kind === 'dc_api'
        ? dcApiSessionTranscript({ origin: channel.origin, nonce: request.nonce, keyThumbprint })
        : redirectSessionTranscript({ clientId: signer.clientId, nonce: request.nonce, keyThumbprint, responseUri: channel.responseUri }),
    anchors,
    now,
    statusList: async (uri) => {
      if (uri.startsWith(ownLists)) {
        const list = await signedTokenStatusList(
          {
            db: deps.db,
            publicUrl: deps.config.publicUrl,
            signer: () => deps.issuerKeys.jwtSigner(),
            now,
            ttlSeconds: deps.config.STATUS_LIST_MAX_AGE_SECONDS,
          },
          uri.slice(ownLists.length).toLowerCase(),
        );
        if (!list) throw new Refusal('status', `This issuer has no status list at ${uri}`);
        return list.jwt;
      }
      return foreignStatusList(deps, uri);
    },
    // As POST /presentations/verify checks them, in the organization's share of the signing threads.
    verifyDataIntegrity: (presentation, options) =>
      verifyPresentation(
        { db: deps.db, pool: deps.pool, publicUrl: deps.config.publicUrl, trust: deps.trustedIssuers, ownResources: deps.ownResources },
        presentation,
        { ...options, trustedIssuers: anchors.dids },
        request.organizationId,
        now,
      ),
  });
}
