import http from 'node:http';
import https from 'node:https';
import { describe, expect, it } from '@jest/globals';
import * as Bls from '@digitalbazaar/bls12-381-multikey';
import request from 'supertest';
import { deriveCredential, signCredential, verifyCredential } from '../../src/vc/bbs.js';
import { documentLoader } from '../../src/vc/document-loader.js';
import { buildIssuer, SUBJECT, useIssuer } from '../helpers.js';

const suite = useIssuer();

describe('JSON-LD documents', () => {
  it('are never fetched: signing, deriving and verifying work with the network calls trapped', async () => {
    const attempts: string[] = [];
    const trap =
      (name: string) =>
      (..._args: unknown[]) => {
        attempts.push(name);
        throw new Error(`network use: ${name}`);
      };
    const saved = { fetch: globalThis.fetch, httpGet: http.get, httpRequest: http.request, httpsGet: https.get, httpsRequest: https.request };
    Object.assign(globalThis, { fetch: trap('fetch') });
    Object.assign(http, { get: trap('http.get'), request: trap('http.request') });
    Object.assign(https, { get: trap('https.get'), request: trap('https.request') });
    try {
      const pair = await Bls.generateBbsKeyPair({ algorithm: Bls.ALGORITHMS.BBS_BLS12381_SHA256 });
      const exported = await pair.export({ publicKey: true, secretKey: true });
      const controller = `did:key:${exported.publicKeyMultibase}`;
      const key = { ...exported, id: `${controller}#${exported.publicKeyMultibase}`, controller };
      const credential = {
        '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
        id: 'urn:uuid:7d0b3f0e-4b1a-4c55-9f4c-0e6f5d8a1b2c',
        type: ['VerifiableCredential'],
        issuer: controller,
        validFrom: '2026-11-22T10:00:00Z',
        credentialSubject: { id: `did:ethr:${SUBJECT}`, member: true },
      };
      const signed = await signCredential({ credential, key, created: new Date('2026-11-22T10:00:00Z'), mandatoryPointers: ['/issuer'] });
      const derived = await deriveCredential({ credential: signed, selectivePointers: ['/credentialSubject/member'] });
      expect(await verifyCredential({ credential: derived })).toEqual({ verified: true, errors: [] });
    } finally {
      Object.assign(globalThis, { fetch: saved.fetch });
      Object.assign(http, { get: saved.httpGet, request: saved.httpRequest });
      Object.assign(https, { get: saved.httpsGet, request: saved.httpsRequest });
    }
    expect(attempts).toEqual([]);
    await expect(documentLoader('https://example.com/contexts/private/v1')).rejects.toThrow(/not bundled with the issuer and is never fetched/);
  });

  it('resolve did:keys that begin zUC6 as well as zUC7', async () => {
    let found: { publicKeyMultibase: string; secretKeyMultibase?: string } | undefined;
    for (let i = 0; i < 3000 && !found; i++) {
      const pair = await Bls.generateBbsKeyPair({ algorithm: Bls.ALGORITHMS.BBS_BLS12381_SHA256 });
      const exported = await pair.export({ publicKey: true, secretKey: true });
      if (exported.publicKeyMultibase.startsWith('zUC6')) found = exported;
    }
    expect(found).toBeDefined();
    const did = `did:key:${found!.publicKeyMultibase}`;
    const resolved = (await documentLoader(did)).document as { id: string };
    expect(resolved.id).toBe(did);
    const fresh = buildIssuer({ ISSUER_PUBLIC_KEY_MULTIBASE: found!.publicKeyMultibase, ISSUER_SECRET_KEY_MULTIBASE: found!.secretKeyMultibase! });
    try {
      const { credential } = (
        await request(fresh.app)
          .post('/credentials/issue')
          .set('X-API-Token', suite.token)
          .send({ subject_address: SUBJECT, claims: { a: 1 } })
      ).body;
      expect(credential.issuer).toBe(did);
      expect((await request(fresh.app).post('/credentials/verify').set('X-API-Token', suite.token).send({ credential })).body.verified).toBe(true);
    } finally {
      await fresh.deps.close();
    }
  });
});
