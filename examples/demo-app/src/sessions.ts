import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type { WalletOffer } from './wallet-offer.js';
import type { WalletProof } from './wallet-proof.js';

export interface Session {
  csrf: string;
  /** Between /login and /callback. */
  pending?: { state: string; verifier: string };
  tokens?: { access: string; refresh?: string; scope: string; expiresAt: number };
  /** The wallet offer made for this person, shown until it expires. */
  walletOffer?: WalletOffer;
  /** The visitor's request to prove their age with a wallet (signed in or not), shown until they ask again. */
  proof?: WalletProof;
  /** The page to show once, after a redirect (a refusal, a revocation). */
  notice?: { kind: 'ok' | 'error'; text: string };
}

const COOKIE = 'demo_app_session';
const MAX_SESSIONS = 1000;

/**
 * Sessions in this process's memory, keyed by a random cookie: enough for a demo. A real app
 * keeps them in its own store; the tokens never reach the browser either way.
 */
export class Sessions {
  private readonly byId = new Map<string, Session>();

  constructor(private readonly secureCookie: boolean) {}

  get(req: Request, res: Response): Session {
    const id = /(?:^|;\s*)demo_app_session=([A-Za-z0-9_-]{43})/.exec(req.headers.cookie ?? '')?.[1];
    const found = id ? this.byId.get(id) : undefined;
    if (found) return found;
    const fresh = randomBytes(32).toString('base64url');
    if (this.byId.size >= MAX_SESSIONS) this.byId.delete(this.byId.keys().next().value!);
    const session: Session = { csrf: randomBytes(16).toString('base64url') };
    this.byId.set(fresh, session);
    // Lax: the identity provider's redirect back to /callback is a top-level GET, which carries it.
    res.cookie(COOKIE, fresh, { httpOnly: true, sameSite: 'lax', secure: this.secureCookie, path: '/' });
    return session;
  }
}
