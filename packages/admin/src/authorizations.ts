import { outboxInsert, walletApprovalRevoked } from '@svc/db';
import { isUuid, webhookEvent } from '@svc/schemas';
import { type AdminContext, inTransaction } from './context.js';
import { AdminError } from './errors.js';

/**
 * An operator ends an authorization (abuse, a court order, the user's request by other means):
 * it and every refresh token of it are revoked, its access tokens are refused by every replica
 * (the grant cache hears of it from PostgreSQL), and its application's organization is told in
 * the same transaction (authorization.revoked, reason operator). Idempotent.
 */
export async function revokeAuthorizationAsOperator(ctx: AdminContext, input: { id: string }) {
  if (!isUuid(input.id)) throw new AdminError('--id must be an authorization id (a UUID)');
  return inTransaction(ctx, async ({ db }) => {
    const a = await db.authorization.findUnique({
      where: { id: input.id },
      select: { id: true, status: true, revokedAt: true, application: { select: { clientId: true, organizationId: true } } },
    });
    if (!a) throw new AdminError(`no authorization ${input.id}`);
    if (a.status === 'revoked') return { id: a.id, status: 'revoked', revoked_at: a.revokedAt?.toISOString() ?? null };
    if (a.status !== 'approved' && a.status !== 'consumed') throw new AdminError(`authorization ${a.id} is ${a.status}: only an approved one can be revoked`);
    const now = ctx.now();
    await db.authorization.update({ where: { id: a.id }, data: { status: 'revoked', revokedAt: now } });
    await db.refreshToken.updateMany({ where: { authorizationId: a.id, revokedAt: null }, data: { revokedAt: now } });
    await outboxInsert(db, {
      organizationId: a.application.organizationId,
      event: webhookEvent('authorization.revoked', { authorization_id: a.id, client_id: a.application.clientId, reason: 'operator' }),
      subject: a.id,
    });
    if (ctx.credentialIssuerClientId)
      await walletApprovalRevoked(db, { authorizationId: a.id, issuerClientId: ctx.credentialIssuerClientId, reason: 'operator' });
    return { id: a.id, status: 'revoked', revoked_at: now.toISOString() };
  });
}
