// BBS signing, proof derivation and verification each recompute the ciphersuite's message
// generators (IETF BBS draft §4.1.1 create_generators: one hash-to-curve per message, count + 1
// of them), and then multiply each by a scalar from scratch. The generators depend only on the
// ciphersuite and their index, so they are the same points on every call: kept here, each with a
// precomputed window table so that its multiplications are several times faster. The points are
// those the unmodified library computes (signatures stay byte-identical; test/bbs-generators.test.ts).
import { bls12_381 } from '@noble/curves/bls12-381';

// Generators are hashed under a DST ending in this (the draft's generator_dst); nothing else is
// cached, so no caller-controlled input (a pseudonym's verifier id, say) can grow the cache.
const GENERATOR_DST = new TextEncoder().encode('SIG_GENERATOR_DST_');
// Enough for credentials of a few hundred statements; past it the library computes as before.
const MAX_ENTRIES = 2048;
// 2^(4-1) points per generator: most of the gain for a small table (measured: 4 beat 8 until a
// worker had signed hundreds of credentials).
const WINDOW = 4;

/** @type {Map<string, ReturnType<typeof bls12_381.G1.hashToCurve>>} */
const points = new Map();
export const stats = { hits: 0, misses: 0 };

/** @param {Uint8Array} dst */
const isGeneratorDst = (dst) => dst.length >= GENERATOR_DST.length && GENERATOR_DST.every((b, i) => dst[dst.length - GENERATOR_DST.length + i] === b);

const G1 = /** @type {{ hashToCurve: typeof bls12_381.G1.hashToCurve, [installed]?: true }} */ (bls12_381.G1);
const installed = Symbol.for('svc.bbs-generator-cache');

if (!G1[installed]) {
  const hashToCurve = G1.hashToCurve;
  G1.hashToCurve = (msg, options) => {
    const dst = options?.DST;
    if (!(dst instanceof Uint8Array) || !isGeneratorDst(dst)) return hashToCurve(msg, options);
    const key = `${Buffer.from(dst).toString('base64')}:${Buffer.from(msg).toString('base64')}`;
    let point = points.get(key);
    if (point) {
      stats.hits++;
      return point;
    }
    stats.misses++;
    point = hashToCurve(msg, options);
    if (points.size < MAX_ENTRIES) {
      // Points are immutable; the table is kept by the library beside the point.
      /** @type {any} */ (point).precompute(WINDOW);
      points.set(key, point);
    }
    return point;
  };
  G1[installed] = true;
}
