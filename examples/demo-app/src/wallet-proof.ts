import { CredentialIssuerClient, type PresentationOutcome } from '@svc/sdk';
import { qrSvg } from './qr-code.js';

const PRESET = 'age_over_18';

/** A request for the visitor's wallet to prove their age, kept in their session until it is answered or expires. */
export interface WalletProof {
  id: string;
  link: string;
  /** The link as a QR code, for a wallet on a phone. */
  qrSvg: string;
  /** What the page hands to `navigator.credentials.get({digital: {requests: [dcApi]}})`, for a wallet in this browser. */
  dcApi: { protocol: string; data: { request: string } };
  expiresAt: string;
  /** The last answer read, once it is no longer pending. */
  outcome?: ProofView;
}

/** What the page shows of an outcome: only what a person needs to read, and nothing the issuer did not say. */
export type ProofView =
  | { status: 'expired' }
  /** `refused`: the last answer failed a check; the request stays open for another until the third. */
  | { status: 'pending'; refused?: { check: string; message: string } }
  | { status: 'verified'; preset: string; value: unknown; issuer: string }
  | { status: 'failed'; check: string; message: string };

/** The credential issuer's verifier through the SDK, with the app's API token (presentations:verify). */
export function proofClient(issuer: { url: string; apiToken: string }, fetchImpl?: typeof fetch): CredentialIssuerClient {
  return new CredentialIssuerClient({ baseUrl: issuer.url, apiToken: issuer.apiToken, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
}

/**
 * Asks for `age_over_18` from any wallet: by QR code (the wallet answers the issuer itself) or by
 * the Digital Credentials API from this app's own pages, the only origin the request names.
 */
export async function askForAge(client: CredentialIssuerClient, appOrigin: string): Promise<WalletProof> {
  const asked = await client.requestPresentation({ presets: [PRESET], expectedOrigins: [appOrigin], purpose: 'The demo app checks that you are over 18' });
  if (!asked.dc_api) throw new Error('the credential issuer made no Digital Credentials API request');
  return { id: asked.id, link: asked.request_link, qrSvg: await qrSvg(asked.request_link), dcApi: asked.dc_api, expiresAt: asked.expires_at };
}

export function viewOf(outcome: PresentationOutcome): ProofView {
  switch (outcome.status) {
    case 'verified': {
      const proved = outcome.presets?.[PRESET];
      return { status: 'verified', preset: PRESET, value: proved?.value, issuer: proved?.issuer ?? '' };
    }
    case 'failed': {
      const [first] = outcome.errors;
      return { status: 'failed', check: first?.check ?? 'unknown', message: first?.message ?? 'The presentation was refused' };
    }
    case 'pending': {
      const [first] = outcome.errors ?? [];
      return first ? { status: 'pending', refused: { check: first.check, message: first.message } } : { status: 'pending' };
    }
    default:
      return { status: outcome.status };
  }
}
