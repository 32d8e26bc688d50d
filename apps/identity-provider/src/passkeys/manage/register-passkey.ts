import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import { isUniqueViolation } from '@svc/db';
import type { PasskeyView, RegistrationCredential } from '@svc/schemas';
import { passkeyExists, passkeyRegistrationRefused } from '../../errors.js';
import type { SessionUser } from '../../sessions/sessions.js';
import { chainsToTrustedRoot } from './attestation.js';
import { CHALLENGE_TTL_SECONDS, PasskeyChallenges } from '../challenges.js';
import type { PasskeyDeps } from '../deps.js';
import { passkeyView, userHandle } from '../passkey-view.js';

// P-256 and Ed25519 first, RSA for the authenticators (Windows Hello) that have nothing else.
const ALGORITHMS = [-7, -8, -257];

const challenges = (deps: PasskeyDeps) => new PasskeyChallenges(deps.store.cache, () => deps.clock.now());

/**
 * The options a browser creates a passkey of `user` with: a discoverable credential (signing in
 * needs no email first) with user verification, none the person has already, and attestation
 * only where the operator has roots to check it against (asking for it otherwise only costs the
 * person a privacy prompt).
 */
export async function registrationOptions(deps: PasskeyDeps, user: SessionUser) {
  const { rpId, attestationRoots } = deps.config.passkeys;
  const existing = await deps.db.passkey.findMany({ where: { userId: user.userId }, select: { credentialId: true, transports: true } });
  const options = await generateRegistrationOptions({
    rpName: deps.config.provider.name ?? deps.config.provider.host,
    rpID: rpId,
    userName: user.email,
    userDisplayName: user.email,
    userID: isoBase64URL.toBuffer(userHandle(deps.config, user.userId)),
    timeout: CHALLENGE_TTL_SECONDS * 1000,
    attestationType: attestationRoots.length > 0 ? 'direct' : 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  await challenges(deps).forRegistration(options.challenge, user.userId);
  return options;
}

/** The challenge inside the browser's client data, which finds the registration it answers. */
function challengeOf(credential: RegistrationCredential): string {
  try {
    return decodeClientDataJSON(credential.response.clientDataJSON).challenge;
  } catch {
    throw passkeyRegistrationRefused('credential.response.clientDataJSON is not WebAuthn client data');
  }
}

/** Verifies and keeps a new passkey of `user`: 201's body. */
export async function addPasskey(
  deps: PasskeyDeps,
  user: SessionUser,
  body: { name?: string | undefined; credential: RegistrationCredential },
): Promise<PasskeyView> {
  const { rpId, origin, attestationRoots } = deps.config.passkeys;
  const expectedChallenge = await challenges(deps).takeRegistration(challengeOf(body.credential), user.userId);
  const verification = await verifyRegistrationResponse({
    // The library's types know no null attachment (browsers write one where it is not known).
    response: { ...body.credential, authenticatorAttachment: body.credential.authenticatorAttachment ?? undefined },
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpId,
    requireUserVerification: true,
    supportedAlgorithmIDs: ALGORITHMS,
  }).catch((err: unknown) => {
    throw passkeyRegistrationRefused(err instanceof Error ? err.message : 'it does not verify');
  });
  if (!verification.verified) throw passkeyRegistrationRefused('it does not verify');
  const info = verification.registrationInfo;
  const now = deps.clock.now();
  const count = await deps.db.passkey.count({ where: { userId: user.userId } });
  try {
    const created = await deps.db.passkey.create({
      data: {
        userId: user.userId,
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey),
        counter: BigInt(info.credential.counter),
        transports: info.credential.transports ?? body.credential.response.transports ?? [],
        backupEligible: info.credentialDeviceType === 'multiDevice',
        backedUp: info.credentialBackedUp,
        aaguid: info.aaguid,
        attestedHardware: chainsToTrustedRoot(body.credential.response.attestationObject, attestationRoots, now),
        name: body.name ?? `Passkey ${count + 1}`,
        createdAt: now,
      },
    });
    return passkeyView(created);
  } catch (err) {
    // The credential id is unique across all accounts: nobody registers one that is someone else's (or theirs twice).
    if (isUniqueViolation(err)) throw passkeyExists();
    throw err;
  }
}
