// JSON-LD documents come from bundled packages only: the W3C credentials contexts (v2,
// undefined-terms, v1 and its examples, status lists for v1), data integrity and multikey, and the community contexts
// the npm registry publishes (mobile driving licence, citizenship, age verification, ODRL), plus
// did:key documents computed locally. Anything else is refused, so signing and verifying never
// touch the network.
import { contexts as ageContexts } from '@digitalbazaar/age-verification-context';
import * as Bls from '@digitalbazaar/bls12-381-multikey';
import { contexts as citizenshipContexts } from '@digitalbazaar/citizenship-context';
import * as credentialsContext from '@digitalbazaar/credentials-context';
import { contexts as examplesContexts } from '@digitalbazaar/credentials-examples-context';
import * as dataIntegrityContext from '@digitalbazaar/data-integrity-context';
import { driver as didKeyDriver } from '@digitalbazaar/did-method-key';
import * as EcdsaMultikey from '@digitalbazaar/ecdsa-multikey';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import * as multikeyContext from '@digitalbazaar/multikey-context';
import { contexts as odrlContexts } from '@digitalbazaar/odrl-context';
import { contexts as statusListContexts } from '@digitalbazaar/vc-bitstring-status-list-context';
import { contexts as vdlContexts } from '@digitalbazaar/vdl-context';

export const CREDENTIALS_V2 = 'https://www.w3.org/ns/credentials/v2';
export const UNDEFINED_TERMS_V2 = 'https://www.w3.org/ns/credentials/undefined-terms/v2';

export const STATUS_LIST_V1 = 'https://www.w3.org/ns/credentials/status/v1';
export const EXAMPLES_V2 = 'https://www.w3.org/ns/credentials/examples/v2';

const statics = new Map([
  ...credentialsContext.contexts,
  ...dataIntegrityContext.contexts,
  ...multikeyContext.contexts,
  ...examplesContexts,
  ...vdlContexts,
  ...citizenshipContexts,
  ...ageContexts,
  ...odrlContexts,
  ...statusListContexts,
  // VC DM 2.0 Appendix: the examples context, which no npm package carries; it maps every term
  // into the W3C's examples namespace, as published at its URL.
  [EXAMPLES_V2, { '@context': { '@vocab': 'https://www.w3.org/ns/credentials/examples#' } }],
]);

/** Every context URL the issuer can process, for its documentation and error messages. */
export const BUNDLED_CONTEXTS = [...statics.keys()].filter((url) => !url.startsWith('did:'));

const didKey = didKeyDriver();
// The driver matches the first four characters of the multibase key; about 1% of BLS12-381 G2
// keys encode to `zUC6…` rather than `zUC7…`, so both prefixes must be registered.
for (const header of ['zUC7', 'zUC6']) didKey.use({ multibaseMultikeyHeader: header, fromMultibase: Bls.from });
// Holders sign presentations with Ed25519 (z6Mk…) or P-256 / P-384 (zDna…, z82L…) keys.
didKey.use({ multibaseMultikeyHeader: 'z6Mk', fromMultibase: Ed25519Multikey.from });
for (const header of ['zDna', 'z82L']) didKey.use({ multibaseMultikeyHeader: header, fromMultibase: EcdsaMultikey.from });

export class DocumentNotBundledError extends Error {
  /** @param {string} url */
  constructor(url) {
    super(`JSON-LD document ${url} is not bundled with the issuer and is never fetched; embed its definitions in an @context object, or use one of: ${BUNDLED_CONTEXTS.join(', ')}`);
    this.name = 'DocumentNotBundledError';
    this.url = url;
  }
}

/** @param {string} url */
export async function documentLoader(url) {
  const document = statics.get(url);
  if (document) return { contextUrl: null, documentUrl: url, document };
  if (url.startsWith('did:key:')) {
    return { contextUrl: null, documentUrl: url, document: await didKey.get({ url }) };
  }
  throw new DocumentNotBundledError(url);
}

/** Every term the credentials v2 context defines, at any depth: claims may not redefine them. */
export function contextTerms() {
  /** @type {Set<string>} */
  const terms = new Set();
  /** @param {unknown} node */
  const walk = (node) => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (!key.startsWith('@')) terms.add(key);
      walk(value);
    }
  };
  walk(/** @type {{ '@context': unknown }} */ (statics.get(CREDENTIALS_V2))['@context']);
  return terms;
}
