#!/usr/bin/env node
// The holder's step of the guide's POST /presentations/verify example (docs/credential-issuer.md):
// reads credentials (JSON on stdin: one, or an array), wraps them in a presentation and signs it
// for the verifier's challenge (and domain) with a throwaway Ed25519 did:key (eddsa-rdfc-2022,
// proof purpose authentication), and prints the presentation. A wallet would keep its key; this
// one is made for the run and forgotten, which is all a verifier's example needs.
//
//   echo "$DERIVED" | node apps/credential-issuer/scripts/sign-presentation.mjs --challenge "$CHALLENGE" [--domain verifier.example]
import { parseArgs } from 'node:util';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { documentLoader } from '../src/vc/document-loader.js';

const { values } = parseArgs({ options: { challenge: { type: 'string' }, domain: { type: 'string' } } });
if (!values.challenge) {
  process.stderr.write('usage: sign-presentation.mjs --challenge CHALLENGE [--domain DOMAIN] < credential.json\n');
  process.exit(2);
}

let input = '';
for await (const chunk of process.stdin) input += chunk;
let credentials;
try {
  credentials = [JSON.parse(input)].flat();
} catch {
  process.stderr.write('stdin must hold a credential as JSON (or an array of them)\n');
  process.exit(2);
}

const key = await Ed25519Multikey.generate();
const { publicKeyMultibase } = await key.export({ publicKey: true });
key.controller = `did:key:${publicKeyMultibase}`;
key.id = `${key.controller}#${publicKeyMultibase}`;
const presentation = await vc.signPresentation({
  presentation: vc.createPresentation({ verifiableCredential: credentials, holder: key.controller }),
  suite: new DataIntegrityProof({ signer: key.signer(), cryptosuite }),
  challenge: values.challenge,
  ...(values.domain ? { domain: values.domain } : {}),
  documentLoader,
});
process.stdout.write(`${JSON.stringify(presentation)}\n`);
