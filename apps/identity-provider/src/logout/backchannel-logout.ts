import { randomUUID } from 'node:crypto';
import type { Logger, outboundFetch } from '@svc/http';
import { appScopedUserId, clientSessionId } from '../keys/keyed.js';
import { signToken } from '../tokens/tokens.js';
import { signingAlgorithmOf } from '../clients/signing-algorithms.js';
import type { TokenContext } from '../tokens/token-context.js';

/** OpenID Connect Back-Channel Logout 1.0 §2.4: the event a logout token carries. */
const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
// A logout token is a one-time message, delivered at once: it need not live long (§2.4 asks for a short exp).
const LOGOUT_TOKEN_SECONDS = 120;
const DELIVERY_TIMEOUT_MS = 5_000;

interface Listener {
  clientId: string;
  organizationId: string;
  backchannelLogoutUri: string;
  userId: string;
  fapiProfile: string | null;
  idTokenSignedResponseAlg: string | null;
  introspectionSignedResponseAlg: string | null;
}

/**
 * Tells every client that holds a live authorization approved in a session that the session has
 * ended: a logout token (`typ` logout+jwt, signed like an id_token, `aud` the client, `sub` and
 * `sid` as that client knows them, no `nonce`) posted to its registered backchannel_logout_uri.
 * Delivery runs after the person's answer, never holding it up; each client gets one try of at
 * most five seconds through the outbound fetch (no internal addresses, no redirects), and the
 * outcome is logged without the token.
 */
export class BackchannelLogout {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly ctx: TokenContext,
    private readonly fetch: ReturnType<typeof outboundFetch>,
    private readonly logger: Logger,
  ) {}

  /** Starts telling the clients of `sessionId`; answers at once. */
  sessionEnded(sessionId: string): void {
    const delivery = this.deliver(sessionId).catch((err: Error) => this.logger.warn({ err: err.message }, 'back-channel logout not delivered'));
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  /** Waits for the deliveries under way (shutdown, and tests that read what a client received). */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  private async deliver(sessionId: string): Promise<void> {
    const listeners = await this.ctx.db.$queryRaw<Listener[]>`
      SELECT DISTINCT app."clientId", app."organizationId", app."backchannelLogoutUri", a."userId",
             app."fapiProfile", app."idTokenSignedResponseAlg", app."introspectionSignedResponseAlg"
      FROM "Authorization" a JOIN "Application" app ON app.id = a."applicationId"
      WHERE a."sessionId" = ${sessionId}::uuid AND a.status IN ('approved', 'consumed') AND a."userId" IS NOT NULL
        AND app.status = 'active' AND app."backchannelLogoutUri" IS NOT NULL`;
    await Promise.all(listeners.map((listener) => this.tell(listener, sessionId)));
  }

  private async tell(l: Listener, sessionId: string): Promise<void> {
    const token = await signToken(
      this.ctx,
      {
        aud: l.clientId,
        sub: appScopedUserId(this.ctx.secret, l.organizationId, l.userId),
        sid: clientSessionId(this.ctx.secret, l.clientId, sessionId),
        jti: randomUUID(),
        events: { [LOGOUT_EVENT]: {} },
      },
      'logout+jwt',
      LOGOUT_TOKEN_SECONDS,
      signingAlgorithmOf(l, 'logout_token'),
    );
    try {
      const res = await this.fetch(l.backchannelLogoutUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ logout_token: token }).toString(),
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      this.logger.info({ client_id: l.clientId, status: res.status }, 'back-channel logout delivered');
    } catch (err) {
      this.logger.warn({ client_id: l.clientId, err: (err as Error).message }, 'back-channel logout not delivered');
    }
  }
}
