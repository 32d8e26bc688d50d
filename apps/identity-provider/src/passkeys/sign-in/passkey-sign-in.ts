import { generateAuthenticationOptions, verifyAuthenticationResponse } from '@simplewebauthn/server';
import { type AuthenticationCredential, type SignInAssurance, signedInAs } from '@svc/schemas';
import { passkeyRefused } from '../../errors.js';
import { startSession } from '../../sessions/sessions.js';
import { CHALLENGE_TTL_SECONDS, PasskeyChallenges } from '../challenges.js';
import type { PasskeyDeps } from '../deps.js';
import { PasskeyAttempt } from './passkey-throttle.js';
import { userHandle } from '../passkey-view.js';

const challenges = (deps: PasskeyDeps) => new PasskeyChallenges(deps.store.cache, () => deps.clock.now());

/** RFC 8176: `hwk` only where attestation proved the key lives in hardware the operator trusts; user verification always. */
const assuranceOf = (passkey: { attestedHardware: boolean }): SignInAssurance => signedInAs(passkey.attestedHardware ? 'phrh' : 'phr');

/**
 * A sign-in's challenge, with no credentials listed: the passkeys are discoverable, so the browser
 * offers the person theirs (a button, or the email field's autofill) without learning who exists here.
 */
export async function signInOptions(deps: PasskeyDeps) {
  const options = await generateAuthenticationOptions({ rpID: deps.config.passkeys.rpId, userVerification: 'required', timeout: CHALLENGE_TTL_SECONDS * 1000 });
  return { challenge_id: await challenges(deps).forSignIn(options.challenge), options };
}

/**
 * Signs in with a passkey: the challenge spent, the signature checked with the stored key, user
 * verification required, the sign counter moved forward (a counter that went backwards, or stayed
 * put above 0, means a cloned authenticator: refused), the backup flag updated; then a session as
 * a password sign-in makes one, with the passkey's acr and amr. Through the passkey throttle.
 */
export async function signInWithPasskey(deps: PasskeyDeps, input: { challenge_id: string; credential: AuthenticationCredential; address: string }) {
  const { credential } = input;
  const attempt = await PasskeyAttempt.reserve(deps.store.limiter, credential.id, input.address);
  let started: Awaited<ReturnType<typeof startSession>> | undefined;
  try {
    const verified = await verify(deps, input.challenge_id, credential);
    const now = deps.clock.now();
    // The counter moves and the session is made in one transaction, the passkey's row held until
    // both are in: a delete of the passkey either waits and then ends this session with the others,
    // or came first and this sign-in finds no row to move.
    started = await deps.db.$transaction(async (tx) => {
      const moved = await tx.$executeRaw`
        UPDATE "Passkey" SET "counter" = ${verified.newCounter}, "backedUp" = ${verified.backedUp}, "lastUsedAt" = ${now}
        WHERE "id" = ${verified.passkeyId}::uuid AND ("counter" < ${verified.newCounter} OR ("counter" = 0 AND ${verified.newCounter} = 0))`;
      // Checked where it is written: of two sign-ins with one counter value, one moves it on.
      if (moved === 0) throw passkeyRefused('its sign counter did not move forward, as a copied authenticator’s would not (or it was deleted)');
      return startSession({ db: tx, environment: deps.environment }, verified.userId, verified.assurance, now, verified.passkeyId);
    });
  } finally {
    await attempt.finish(started !== undefined);
  }
  return started;
}

async function verify(deps: PasskeyDeps, challengeId: string, credential: AuthenticationCredential) {
  const { rpId, origin } = deps.config.passkeys;
  const expectedChallenge = await challenges(deps).takeSignIn(challengeId);
  const passkey = await deps.db.passkey.findUnique({ where: { credentialId: credential.id } });
  if (!passkey) throw passkeyRefused('this passkey is not registered here (it may have been deleted)');
  // A discoverable credential names its account: it must be the passkey's owner.
  if (credential.response.userHandle !== undefined && credential.response.userHandle !== userHandle(deps.config, passkey.userId))
    throw passkeyRefused('the passkey names another account');
  const result = await verifyAuthenticationResponse({
    // The library's types know no null attachment (browsers write one where it is not known).
    response: { ...credential, authenticatorAttachment: credential.authenticatorAttachment ?? undefined },
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpId,
    credential: {
      id: passkey.credentialId,
      publicKey: new Uint8Array(passkey.publicKey),
      counter: Number(passkey.counter),
      transports: passkey.transports as never,
    },
    requireUserVerification: true,
  }).catch((err: unknown) => {
    throw passkeyRefused(err instanceof Error ? err.message : 'it does not verify');
  });
  if (!result.verified) throw passkeyRefused('its signature does not verify');
  const { newCounter, credentialBackedUp } = result.authenticationInfo;
  return {
    userId: passkey.userId,
    passkeyId: passkey.id,
    assurance: assuranceOf(passkey),
    newCounter: BigInt(newCounter),
    backedUp: credentialBackedUp,
  };
}
