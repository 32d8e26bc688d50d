/**
 * The notification endpoint (OpenID4VCI 1.0 §11): a wallet says what became of the credentials of
 * one credential response (accepted, deleted, failed), with the access token it received them
 * with. Kept on their record, which GET /credentials shows; a notification changes nothing else.
 */
import type { z } from 'zod';
import type { ZNotificationRequest } from '@svc/schemas';
import { accessTokenMissing, certificateBoundTokenRefused, invalidAccessToken, invalidNotificationId } from '../errors.js';
import type { AuthorizationServerClient } from '../approvals/authorization-server.js';
import { offerOfAccessToken } from '../offers/offers.js';
import { checkBinding, type PresentedToken, type WalletIssueDeps } from './wallet-credentials.js';

export async function takeNotification(
  deps: Pick<WalletIssueDeps, 'db' | 'config' | 'clock' | 'dpop'>,
  presented: PresentedToken | undefined,
  body: z.output<typeof ZNotificationRequest>,
  authorizationServer?: AuthorizationServerClient,
): Promise<void> {
  if (!presented) throw accessTokenMissing();
  const { token } = presented;
  const offer = await offerOfAccessToken({ db: deps.db, publicUrl: deps.config.publicUrl, now: () => deps.clock.now() }, token);
  // Whose credentials this token received: its offer's, or those of its approval at the identity provider.
  let received: (record: { credentialId: string; approval: string | null }) => boolean;
  if (offer) {
    await checkBinding(deps, presented, offer.dpopJkt, '/notification');
    received = (record) => record.credentialId === offer.credentialId;
  } else {
    // The identity provider's tokens are checked here by their signature alone: a notification hands nothing out.
    const verified = authorizationServer && token.split('.').length === 3 ? await authorizationServer.verify(token) : undefined;
    if (!verified) throw invalidAccessToken();
    if (verified.certificateBound) throw certificateBoundTokenRefused();
    await checkBinding(deps, presented, verified.jkt, '/notification');
    received = (record) => record.approval?.startsWith(`${verified.authorizationId}#`) === true;
  }
  const record = await deps.db.issuedCredential.findUnique({
    where: { notificationId: body.notification_id },
    select: { id: true, credentialId: true, approval: true },
  });
  if (!record || !received(record)) throw invalidNotificationId();
  await deps.db.issuedCredential.update({ where: { id: record.id }, data: { walletEvent: body.event, walletEventAt: deps.clock.now() } });
}
