import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import * as bbs from '@digitalbazaar/bbs-signatures';
import { stats } from '../../src/vc/generator-cache.js';

// Fixed inputs: BBS signing is deterministic (draft §3.4.1), so the same inputs give the same bytes.
const secretKey = Uint8Array.from(Buffer.from('4a39afffd624d69e81808b2e84385cc80bf86adadf764e030caa46c231f2a8d7', 'hex'));
const header = new TextEncoder().encode('header');
const messages = Array.from({ length: 12 }, (_, i) => new TextEncoder().encode(`_:c14n${i} <https://example.org/p> "${i}" .`));
const ciphersuite = 'BLS12-381-SHA-256';

/** The same signature from the library alone, in a process where the cache was never loaded. */
function signedByUnmodifiedLibrary(publicKey: Uint8Array): string {
  const script = `
    import * as bbs from '@digitalbazaar/bbs-signatures';
    const hex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
    const input = JSON.parse(process.argv[1]);
    const messages = input.messages.map(hex);
    const signature = await bbs.sign({ secretKey: hex(input.sk), publicKey: hex(input.pk), header: hex(input.header), messages, ciphersuite: input.ciphersuite });
    const verified = await bbs.verifySignature({ publicKey: hex(input.pk), signature, header: hex(input.header), messages, ciphersuite: input.ciphersuite });
    process.stdout.write(JSON.stringify({ signature: Buffer.from(signature).toString('hex'), verified }));`;
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
  const input = JSON.stringify({ sk: hex(secretKey), pk: hex(publicKey), header: hex(header), messages: messages.map(hex), ciphersuite });
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, input], { cwd: fileURLToPath(new URL('.', import.meta.url)) });
  return out.toString();
}

describe('BBS generator cache', () => {
  it('serves the generators from memory from the second signature on, and the signature is byte-identical to the library’s own', async () => {
    const publicKey = await bbs.secretKeyToPublicKey({ secretKey, ciphersuite });
    const first = await bbs.sign({ secretKey, publicKey, header, messages, ciphersuite });
    const before = { ...stats };
    const second = await bbs.sign({ secretKey, publicKey, header, messages, ciphersuite });
    expect(Buffer.from(second)).toEqual(Buffer.from(first));
    expect(stats.misses).toBe(before.misses);
    expect(stats.hits - before.hits).toBe(messages.length + 1);

    const reference = JSON.parse(signedByUnmodifiedLibrary(publicKey));
    expect(reference).toEqual({ signature: Buffer.from(first).toString('hex'), verified: true });
    // And the other way round: what the cached path signed, the cached path verifies, and a changed message fails.
    expect(await bbs.verifySignature({ publicKey, signature: first, header, messages, ciphersuite })).toBe(true);
    const tampered = [...messages.slice(0, -1), new TextEncoder().encode('changed')];
    expect(await bbs.verifySignature({ publicKey, signature: first, header, messages: tampered, ciphersuite })).toBe(false);
  });
});
