import { cborEncode, DataItem } from '@animo-id/mdoc';
import { sha256 } from '../requests/request-object.js';

/**
 * The ISO 18013-5 SessionTranscript an mdoc's device signature covers, for OpenID4VP 1.0
 * (Appendix B.2.6): `[null, null, Handover]`, the handover binding the answer to this request (its
 * client id, nonce, response key and response URI; over the DC API, the page's origin instead).
 * Written by the mdoc library's CBOR encoder, as bytes tagged the way it reads them back.
 */
export function redirectSessionTranscript(input: { clientId: string; nonce: string; keyThumbprint: Uint8Array; responseUri: string }): Uint8Array {
  const info = cborEncode([input.clientId, input.nonce, input.keyThumbprint, input.responseUri]);
  return cborEncode(DataItem.fromData([null, null, ['OpenID4VPHandover', sha256(info)]]));
}

export function dcApiSessionTranscript(input: { origin: string; nonce: string; keyThumbprint: Uint8Array }): Uint8Array {
  const info = cborEncode([input.origin, input.nonce, input.keyThumbprint]);
  return cborEncode(DataItem.fromData([null, null, ['OpenID4VPDCAPIHandover', sha256(info)]]));
}
