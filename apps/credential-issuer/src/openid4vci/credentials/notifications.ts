/**
 * The notification endpoint (OpenID4VCI 1.0 §11): a wallet says what became of the credentials of
 * one credential response (accepted, deleted, failed), with the access token it received them
 * with. Kept on their record, which GET /credentials shows; a notification changes nothing else.
 */
import type { z } from 'zod';
import type { ZNotificationRequest } from '@svc/schemas';
import { invalidNotificationId } from '../errors.js';
import type { WalletIssueDeps } from './wallet-credentials.js';
import type { WalletToken } from './wallet-token.js';

export async function takeNotification(
  deps: Pick<WalletIssueDeps, 'db' | 'clock'>,
  wallet: WalletToken,
  body: z.output<typeof ZNotificationRequest>,
): Promise<void> {
  // Whose credentials this token received: its offer's, or those of its approval at the identity
  // provider (its token checked by its signature alone: a notification hands nothing out).
  const received = (record: { credentialId: string; approval: string | null }) =>
    wallet.kind === 'offer' ? record.credentialId === wallet.offer.credentialId : record.approval?.startsWith(`${wallet.verified.authorizationId}#`) === true;
  const record = await deps.db.issuedCredential.findUnique({
    where: { notificationId: body.notification_id },
    select: { id: true, credentialId: true, approval: true },
  });
  if (!record || !received(record)) throw invalidNotificationId();
  await deps.db.issuedCredential.update({ where: { id: record.id }, data: { walletEvent: body.event, walletEventAt: deps.clock.now() } });
}
