// What a credential says, read from the RDF its proof covers rather than from its JSON members.
// JSON-LD lets the same signed statements be written under other keys (a full IRI for
// `credentialStatus`, "@id" for "id", a typed value object for `validUntil`, an `@included` node
// with the credential's own id), so every judgement of id, issuer, validity and status is made
// here, on the dataset, with the issuer's bundled contexts only. Runs in the signing threads.
import jsonld from 'jsonld';
import { documentLoader } from './document-loader.js';

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const CRED = 'https://www.w3.org/2018/credentials#';
const STATUS = 'https://www.w3.org/ns/credentials/status#';
const SEC_PROOF = 'https://w3id.org/security#proof';

/**
 * How the RDF the proofs cover is made: language-and-direction values (`@direction`, VC DM 2.0
 * §11.1) become `https://www.w3.org/ns/i18n#<language>_<direction>` datatypes, as VC DM 2.0
 * recommends and as the cryptosuites canonicalize them (bbs-2023's di-sd-primitives, the rdfc
 * suites and jsonld-signatures all default to it). Without it JSON-LD's safe mode refuses them.
 */
export const RDF_OPTIONS = /** @type {const} */ ({ documentLoader, safe: true, rdfDirection: 'i18n-datatype' });

/**
 * The members the issuer judges (or sets), by the predicate they stand for: each may be written
 * only under its own name, so what a reader of the JSON sees is what was signed.
 */
const RESERVED = /** @type {const} */ ({
  issuer: `${CRED}issuer`,
  validFrom: `${CRED}validFrom`,
  validUntil: `${CRED}validUntil`,
  issuanceDate: `${CRED}issuanceDate`,
  expirationDate: `${CRED}expirationDate`,
  credentialStatus: `${CRED}credentialStatus`,
  proof: SEC_PROOF,
});

/**
 * @typedef {{ id: string | null, types: string[], statusListCredential: string[], statusListIndex: string[], statusPurpose: string[] }} StatusFact
 * @typedef {{ member: string, value: string }} Stated a value with the name of the member it stands for
 * @typedef {{ id: string | null, types: string[], issuers: string[], validFrom: Stated[], validUntil: Stated[], statuses: StatusFact[] }} SignedFacts
 * @typedef {{ subject: { termType: string, value: string }, predicate: { value: string }, object: { termType: string, value: string }, graph: { termType: string, value: string } }} Quad
 */

/** @param {Record<string, unknown>} document @returns {Promise<Quad[]>} */
async function quadsOf(document) {
  const { proof: _proof, ...unsigned } = document;
  return /** @type {Quad[]} */ (await jsonld.toRDF(unsigned, RDF_OPTIONS));
}

/** @param {Quad[]} quads @param {string} graph */
function index(quads, graph) {
  /** @type {Map<string, Map<string, string[]>>} */
  const bySubject = new Map();
  for (const q of quads) {
    if (q.graph.value !== graph) continue;
    const key = `${q.subject.termType}:${q.subject.value}`;
    let props = bySubject.get(key);
    if (!props) bySubject.set(key, (props = new Map()));
    const values = props.get(q.predicate.value) ?? [];
    values.push(q.object.termType === 'BlankNode' ? `BlankNode:${q.object.value}` : q.object.value);
    props.set(q.predicate.value, values);
  }
  return bySubject;
}

/**
 * The one node of `type` in `graph`; none or several is an error a verifier must not guess past.
 * @param {Map<string, Map<string, string[]>>} nodes @param {string} type @param {string} what
 * @returns {[string, Map<string, string[]>]}
 */
function theNode(nodes, type, what) {
  const found = [...nodes].filter(([, props]) => (props.get(RDF_TYPE) ?? []).includes(type));
  if (found.length !== 1 || !found[0]) throw new Error(`the ${what} states ${found.length === 0 ? 'no' : 'more than one'} ${type.slice(CRED.length)} node`);
  return found[0];
}

/**
 * The signed statements about the credential: its id, types, issuers, validity and status entries,
 * each as often as the dataset states it (a verifier then refuses more than one issuer, applies every
 * validity bound and checks every status entry).
 * @param {Record<string, unknown>} credential
 * @param {string} [graph] the named graph holding it ('' for a credential on its own)
 * @param {Quad[]} [quads]
 * @returns {Promise<SignedFacts>}
 */
export async function signedFacts(credential, graph = '', quads) {
  const nodes = index(quads ?? (await quadsOf(credential)), graph);
  const [key, props] = theNode(nodes, `${CRED}VerifiableCredential`, 'credential');
  /** @param {string} p @returns {string[]} */
  const all = (p) => props.get(p) ?? [];
  const statuses = all(RESERVED.credentialStatus).map((ref) => {
    const entry = nodes.get(ref.startsWith('BlankNode:') ? ref : `NamedNode:${ref}`) ?? new Map();
    const of = (/** @type {string} */ p) => entry.get(p) ?? [];
    return {
      id: ref.startsWith('BlankNode:') ? null : ref,
      types: of(RDF_TYPE),
      statusListCredential: of(`${STATUS}statusListCredential`),
      statusListIndex: of(`${STATUS}statusListIndex`),
      statusPurpose: of(`${STATUS}statusPurpose`),
    };
  });
  return {
    id: key.startsWith('NamedNode:') ? key.slice('NamedNode:'.length) : null,
    types: all(RDF_TYPE),
    issuers: all(RESERVED.issuer),
    validFrom: (/** @type {const} */ (['validFrom', 'issuanceDate'])).flatMap((member) => all(RESERVED[member]).map((value) => ({ member, value }))),
    validUntil: (/** @type {const} */ (['validUntil', 'expirationDate'])).flatMap((member) => all(RESERVED[member]).map((value) => ({ member, value }))),
    statuses,
  };
}

/**
 * The facts of every credential a presentation carries, in the order of its `verifiableCredential`
 * member; a credential stated in the presentation's data but not under that member (a full IRI, an
 * `@included` node) is refused, since a verifier would otherwise pass over it.
 * @param {Record<string, unknown>} presentation
 * @returns {Promise<SignedFacts[]>}
 */
export async function presentationFacts(presentation) {
  const quads = await quadsOf(presentation);
  const [, props] = theNode(index(quads, ''), `${CRED}VerifiablePresentation`, 'presentation');
  const graphs = props.get(`${CRED}verifiableCredential`) ?? [];
  const given = presentation.verifiableCredential;
  const listed = Array.isArray(given) ? given : given ? [given] : [];
  if (graphs.length !== listed.length)
    throw new Error(`the presentation states ${graphs.length} credential(s) but its verifiableCredential member holds ${listed.length}`);
  // Each credential is its own named graph; JSON order and graph order are matched by content.
  return Promise.all(listed.map((credential) => signedFacts(/** @type {Record<string, unknown>} */ (credential))));
}

/**
 * Where `credential` writes a member the issuer judges under another name, or states it more often
 * than its JSON shows: a message naming the predicate, or undefined when the JSON tells the truth.
 * @param {Record<string, unknown>} credential
 */
export async function disguisedMembers(credential) {
  const quads = /** @type {Quad[]} */ (await jsonld.toRDF(credential, RDF_OPTIONS));
  const nodes = index(quads, '');
  const [key, props] = theNode(nodes, `${CRED}VerifiableCredential`, 'credential');
  const jsonCount = (/** @type {unknown} */ v) => (v === undefined ? 0 : Array.isArray(v) ? v.length : 1);
  const problems = [];
  for (const [member, predicate] of Object.entries(RESERVED)) {
    const stated = (props.get(predicate) ?? []).length;
    if (stated !== jsonCount(credential[member]))
      problems.push(`${predicate} is stated ${stated} time(s) but the "${member}" member holds ${jsonCount(credential[member])}`);
  }
  const statedId = key.startsWith('NamedNode:') ? key.slice('NamedNode:'.length) : undefined;
  if (statedId !== credential.id) problems.push(`the credential's @id is ${statedId ?? 'absent'} but its "id" member is ${credential.id ?? 'absent'}`);
  const spelled = Object.keys(credential).filter((k) => k !== '@context' && (k.startsWith('@') || k.includes(':')));
  if (!problems.length) return undefined;
  return `${problems.join('; ')}${spelled.length ? ` (written as ${spelled.map((k) => `"${k}"`).join(', ')})` : ''}: the members the issuer judges or sets (${Object.keys(RESERVED).join(', ')}, id) may be written only under those names`;
}
