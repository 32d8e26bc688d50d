import type { IssuerCa } from './issuer-ca.js';

/** What serving the issuer CA's certificate needs from the app. */
export interface KeysDeps {
  issuerCa: IssuerCa;
}
