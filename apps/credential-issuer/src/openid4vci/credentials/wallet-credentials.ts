/**
 * The credential endpoint's work (OpenID4VCI 1.0 §8): one credential per offer, bound to the key
 * the wallet proved it holds: an SD-JWT VC with a place in a Token Status List, or a bbs-2023
 * credential about the key's did:jwk with a Bitstring Status List entry, recorded like every credential
 * this issuer signs (so `GET /credentials` lists it and `POST /credentials/revoke` revokes it) and
 * told to the organization's webhooks in the same transaction.
 */
import { randomUUID } from 'node:crypto';
import type { CoreDeps } from '@svc/runtime';
import type { WalletProviders } from '@svc/wallet-attestations';
import type { ZCredentialRequest } from '@svc/schemas';
import type { z } from 'zod';
import { overLimit } from '../../http/errors.js';
import { alreadyIssuedOnApproval } from '../../issuance/errors.js';
import {
  credentialRequestDenied,
  invalidAccessToken,
  invalidCredentialRequest,
  invalidProof,
  unknownConfiguration,
  unknownCredentialIdentifier,
} from '../errors.js';
import type { ApprovedGrant, AuthorizationServerClient } from '../approvals/authorization-server.js';
import type { IssueContext } from '../../issuance/issue-credential.js';
import { endedMeanwhile } from '../approvals/approval-events.js';
import { type CredentialConfiguration, configurationById } from '../metadata/configurations.js';
import { type Holder, holderKeysOf, holderKeysOfAttestation, proofAlgorithmsFor } from './holder-proofs.js';
import { issueFor } from './issue-copies.js';
import type { Offer, WalletToken } from './wallet-token.js';

/** What issuing needs: the issuer's own (signing pool and keys included, for ldp_vc), the nonce store, the limiter and the wallet providers. */
export interface WalletIssueDeps extends IssueContext {
  cache: CoreDeps['store']['cache'];
  limiter: CoreDeps['store']['limiter'];
  walletProviders: WalletProviders;
  /** A wallet provider's status list, as text, for its key attestations (RecentStatusLists). */
  statusList: (uri: string) => Promise<string>;
}

/**
 * How often one approval's tokens may have the identity provider asked about them, a minute: a
 * wallet needs one or two; anyone holding a token could otherwise spend this issuer's whole
 * introspection budget there, for every wallet.
 */
const APPROVAL_ASKS_PER_MINUTE = 10;

/**
 * The key proofs a request carries, checked (nonce, audience, freshness, a key the format binds
 * to): one per credential, up to the batch size, each of a key of its own, so that the copies of a
 * batch are bound to keys no verifier can link.
 */
async function holdersOfRequest(deps: WalletIssueDeps, body: z.output<typeof ZCredentialRequest>, configuration: CredentialConfiguration): Promise<Holder[]> {
  if (body.proof !== undefined) throw invalidCredentialRequest('Send the key proof as proofs: {"jwt": [<proof>]} (OpenID4VCI 1.0)');
  if (!body.proofs) throw invalidProof('A key proof is required: proofs: {"jwt": [<proof>]}');
  const batchSize = deps.config.CREDENTIAL_BATCH_SIZE;
  const keyAttestationRequired = (deps.config.KEY_ATTESTATIONS_REQUIRED as readonly string[]).includes(configuration.id);
  const expected = {
    audience: deps.config.publicUrl,
    cache: deps.cache,
    now: deps.clock.now(),
    algorithms: proofAlgorithmsFor(configuration.format),
    providers: deps.walletProviders,
    statusList: deps.statusList,
    keyAttestationRequired,
    levels: keyAttestationRequired
      ? { keyStorage: deps.config.KEY_ATTESTATION_KEY_STORAGE, userAuthentication: deps.config.KEY_ATTESTATION_USER_AUTHENTICATION }
      : undefined,
  };
  const { jwt: proofs, attestation } = body.proofs;
  if (attestation && deps.walletProviders.size === 0) throw invalidProof('This issuer trusts no wallet provider: send jwt proofs');
  const many = proofs?.length ?? 0;
  if (many > batchSize) throw invalidProof(`At most ${batchSize} proofs in one request (batch_credential_issuance.batch_size): one per credential`);
  if (configuration.format === 'ldp_vc' && many > 1)
    throw invalidCredentialRequest(
      'A W3C credential (ldp_vc) is issued one per request: every presentation derived from its bbs-2023 proof is unlinkable already',
    );
  const holders = attestation ? await holderKeysOfAttestation(attestation[0]!, expected) : await holderKeysOf(proofs!, expected);
  if (holders.length > batchSize || (configuration.format === 'ldp_vc' && holders.length > 1))
    throw invalidProof(`The key attestation lists more keys than this credential is issued for at once (${configuration.format === 'ldp_vc' ? 1 : batchSize})`);
  const keys = new Set(holders.map((h) => JSON.stringify(h.jwk)));
  if (keys.size !== holders.length)
    throw invalidProof('Each proof of a batch must be of a key of its own: each copy is bound to a different key, so the copies cannot be linked');
  return holders;
}

/**
 * A wallet's credential request, on the token requireWalletToken proved: an offer's access token
 * (pre-authorized code), or one the identity provider issued when the person approved it
 * (authorization code; `authorizationServer` is asked there what the approval grants).
 */
export async function issueToWallet(
  deps: WalletIssueDeps,
  wallet: WalletToken,
  body: z.output<typeof ZCredentialRequest>,
  authorizationServer?: AuthorizationServerClient,
) {
  if (wallet.kind === 'offer') return issueOnOffer(deps, wallet.offer, body);
  const { verified, presented } = wallet;
  // Whatever can be refused without asking the identity provider is refused first: a credential
  // this approval already received, and more asks on one approval than a wallet makes.
  const named = body.credential_identifier ?? body.credential_configuration_id;
  if (named !== undefined && (await issuedOn(deps, `${verified.authorizationId}#${named}`))) throw alreadyIssuedOnApproval();
  const asks = await deps.limiter.consume(`wallet:approval:${verified.authorizationId}`, { limit: APPROVAL_ASKS_PER_MINUTE, windowSeconds: 60 });
  if (!asks.allowed)
    throw overLimit(asks.retryAfterSeconds, 'Too many credential requests on this approval', { 'Retry-After': String(asks.retryAfterSeconds) });
  // What the identity provider answers is as of this moment or later (endedMeanwhile).
  const askedAt = deps.clock.now();
  const approved = await authorizationServer!.approvedGrant(presented.token);
  if (!approved || approved.authorizationId !== verified.authorizationId || approved.jkt !== verified.jkt) throw invalidAccessToken();
  return issueOnApproval(deps, approved, body, askedAt);
}

const issuedOn = async (deps: WalletIssueDeps, approval: string) =>
  (await deps.db.issuedCredential.findUnique({ where: { approval }, select: { id: true } })) !== null;

async function issueOnOffer(deps: WalletIssueDeps, offer: Offer, body: z.output<typeof ZCredentialRequest>) {
  if (body.credential_identifier !== undefined)
    throw invalidCredentialRequest('An offer’s credential is named by credential_configuration_id (no credential_identifier is issued with it)');
  if (body.credential_configuration_id === undefined) throw invalidCredentialRequest('credential_configuration_id is required');
  if (body.credential_configuration_id !== offer.configurationId) throw unknownConfiguration(body.credential_configuration_id);
  // A spent offer is refused before any proof is checked: its token cannot buy that work again.
  if (offer.credentialId) throw invalidCredentialRequest('The credential of this offer was already issued');
  const holders = await holdersOfRequest(deps, body, configurationById(offer.configurationId)!);
  const recordId = randomUUID();
  const jti = `urn:uuid:${recordId}`;
  // The offer is claimed before any work: of parallel requests one goes on, and the others take
  // no status index and sign nothing. Given back if the work fails, so the wallet can try again.
  const claimed = await deps.db.credentialOffer.updateMany({ where: { id: offer.id, credentialId: null }, data: { credentialId: jti } });
  if (claimed.count === 0) throw invalidCredentialRequest('The credential of this offer was already issued');
  try {
    return await issueFor(deps, offer, holders, recordId);
  } catch (err) {
    await deps.db.credentialOffer.updateMany({ where: { id: offer.id, credentialId: jti }, data: { credentialId: null } });
    throw err;
  }
}

/**
 * A credential the person approved at the identity provider, named by one of the token response's
 * `credential_identifiers` (OpenID4VCI 1.0 §8.2), with the claims their verified data holds today,
 * ending no later than the first verification behind them. One credential of each configuration
 * per approval, whichever of its tokens asks (a refreshed one included): a wallet cannot mint more
 * on one approval, for other keys.
 */
async function issueOnApproval(deps: WalletIssueDeps, approved: ApprovedGrant, body: z.output<typeof ZCredentialRequest>, askedAt: Date) {
  // §8.2 asks for the identifier; wallets that send the configuration id instead (several libraries
  // do) name the same thing here, since each configuration is one dataset. One of the two, not both.
  const { credential_identifier: identifier, credential_configuration_id: configurationId } = body;
  if ((identifier === undefined) === (configurationId === undefined))
    throw invalidCredentialRequest('Name the credential by credential_identifier, from the token response’s authorization_details (OpenID4VCI 1.0 §8.2)');
  const detail = approved.details.find((d) =>
    identifier !== undefined ? d.credential_identifiers.includes(identifier) : d.credential_configuration_id === configurationId,
  );
  const configuration = detail && configurationById(detail.credential_configuration_id);
  if (!configuration) throw identifier !== undefined ? unknownCredentialIdentifier(identifier) : unknownConfiguration(configurationId!);
  const data = approved.data[configuration.id];
  const claims = configuration.schema.safeParse(data?.claims ?? {});
  if (!claims.success) {
    const issue = claims.error.issues[0]!;
    throw credentialRequestDenied(
      `Your verified data does not hold what a ${configuration.names.en} credential says (${issue.path.join('.') || 'claims'}: ${issue.message})`,
    );
  }
  const endsBy = data?.expires_at === undefined ? undefined : new Date(data.expires_at * 1000);
  if (endsBy && endsBy <= deps.clock.now()) throw credentialRequestDenied('The verification behind this credential has just expired: it cannot be issued');
  // Whether this approval already has it was asked before the identity provider was (issueToWallet).
  const approval = `${approved.authorizationId}#${configuration.id}`;
  const holders = await holdersOfRequest(deps, body, configuration);
  // Claimed before any work, as an offer is: of parallel requests on one approval one goes on, and
  // the others take no status index and sign nothing. Given back if the work fails.
  const claim = `wallet:approval-claim:${approval}`;
  if ((await deps.cache.increment(claim, CLAIM_SECONDS)) > 1) throw alreadyIssuedOnApproval();
  const organizationId = deps.config.authorizationServer!.organizationId;
  const source = { configurationId: configuration.id, claims: claims.data, apiKeyId: null, organizationId, subjectAddress: null, approval };
  let issued: Awaited<ReturnType<typeof issueFor>>;
  try {
    issued = await issueFor(deps, source, holders, randomUUID(), endsBy);
  } catch (err) {
    await deps.cache.delete(claim).catch(() => undefined);
    throw err;
  }
  // The person may have revoked the approval (or their data changed) while this was signed, after
  // the identity provider answered: its event then found nothing to revoke, so this request revokes
  // what it recorded and hands nothing out.
  const approvalDeps = { db: deps.db, cache: deps.cache, now: () => deps.clock.now(), organizationId };
  if (await endedMeanwhile(approvalDeps, approval, askedAt)) throw invalidAccessToken();
  return issued;
}

/** How long a claim on an approval holds while its credential is signed and recorded (then the record is what refuses a second one). */
const CLAIM_SECONDS = 120;
