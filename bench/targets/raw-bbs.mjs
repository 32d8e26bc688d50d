// Baseline: Digital Bazaar's libraries signing bbs-2023 credentials on one thread, as they ship
// (in a process of its own, so nothing the issuer adds, such as its generator cache, is loaded).
//   node raw-bbs.mjs <claims> <seconds>  → prints credentials per second
import * as Bls from '@digitalbazaar/bls12-381-multikey';
import { createSignCryptosuite } from '@digitalbazaar/bbs-2023-cryptosuite';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import * as vc from '@digitalbazaar/vc';
import { documentLoader } from '../../apps/credential-issuer/dist/vc/document-loader.js';
import { claimsOf, SUBJECT } from '../credential-claims.mjs';
import { printPerSecond } from './per-second.mjs';

const [claimCount, seconds] = process.argv.slice(2).map(Number);
const pair = await Bls.generateBbsKeyPair({ algorithm: Bls.ALGORITHMS.BBS_BLS12381_SHA256 });
const exported = await pair.export({ publicKey: true, secretKey: true });
pair.controller = `did:key:${exported.publicKeyMultibase}`;
pair.id = `${pair.controller}#${exported.publicKeyMultibase}`;
const credential = {
  '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
  id: 'urn:uuid:7d0b3f0e-4b1a-4c55-9f4c-0e6f5d8a1b2c',
  type: ['VerifiableCredential'],
  issuer: pair.controller,
  validFrom: '2026-11-22T10:00:00Z',
  credentialSubject: { id: `did:ethr:${SUBJECT}`, ...claimsOf(claimCount) },
};
const sign = () =>
  vc.issue({
    credential: structuredClone(credential),
    suite: new DataIntegrityProof({ signer: pair.signer(), cryptosuite: createSignCryptosuite({ mandatoryPointers: ['/issuer', '/validFrom'] }) }),
    documentLoader,
  });
await printPerSecond(seconds, sign);
