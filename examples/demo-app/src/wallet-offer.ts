import { CredentialIssuerClient } from '@svc/sdk';
import { qrSvg } from './qr-code.js';

/** An offer shown to the signed-in person: scanned by a wallet, the code typed into it. */
export interface WalletOffer {
  link: string;
  txCode: string | undefined;
  expiresAt: string;
  /** The link as a QR code (SVG markup: paths only, no text or script). */
  qrSvg: string;
}

/**
 * What an integrator does to put a fact it verified into the person's wallet: an offer of an
 * age credential (OpenID4VCI, through the SDK) with the value the person shared with this app,
 * and a transaction code shown beside it, so a photographed QR code alone is worth nothing.
 */
export async function offerAgeCredential(issuer: { url: string; apiToken: string }, overEighteen: boolean, fetchImpl?: typeof fetch): Promise<WalletOffer> {
  const client = new CredentialIssuerClient({ baseUrl: issuer.url, apiToken: issuer.apiToken, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
  const offer = await client.offer({ configurationId: 'age_over_sd_jwt', claims: { age_over_18: overEighteen }, txCode: true });
  return { link: offer.offer_link, txCode: offer.tx_code, expiresAt: offer.expires_at, qrSvg: await qrSvg(offer.offer_link) };
}
