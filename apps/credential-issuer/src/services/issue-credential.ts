import { randomUUID } from 'node:crypto';
import type { Db } from '@svc/db';
import { HttpError, ValidationError } from '@svc/http';
import type { Config } from '../config.js';
import { SigningJobError, type SigningPool } from '../signing-pool.js';
import { CREDENTIALS_V2, UNDEFINED_TERMS_V2 } from '../vc/document-loader.js';
import type { IssuerKey, IssuerKeys } from './issuer-keys.js';

export type Credential = Record<string, unknown> & { id: string; credentialSubject: Record<string, unknown> };

export interface IssueContext {
  db: Db;
  config: Config;
  keys: IssuerKeys;
  pool: SigningPool;
  now: () => Date;
}

export interface Caller {
  apiKeyId: string;
  organizationId: string;
}

// Seconds precision, as Data Integrity proofs and most verifiers print dateTimes.
const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The spec's shape: a credential about `did:ethr:<subject>` carrying every claim as given. */
export async function issueForSubject(ctx: IssueContext, caller: Caller, input: { subjectAddress: string; claims: Record<string, unknown>; validUntil?: string | undefined }) {
  const key = await ctx.keys.current();
  const now = ctx.now();
  const validUntil = input.validUntil ?? (ctx.config.CREDENTIAL_VALIDITY_SECONDS ? iso(new Date(now.getTime() + ctx.config.CREDENTIAL_VALIDITY_SECONDS * 1000)) : '');
  const credential: Credential = {
    '@context': [CREDENTIALS_V2, UNDEFINED_TERMS_V2],
    id: `urn:uuid:${randomUUID()}`,
    type: ['VerifiableCredential'],
    issuer: key.controller,
    validFrom: iso(now),
    validUntil,
    credentialSubject: { id: `did:ethr:${input.subjectAddress}`, ...input.claims },
    credentialStatus: {
      type: ctx.config.CREDENTIAL_STATUS_TYPE,
      chain_id: ctx.config.CHAIN_ID,
      revocation_registry_contract_address: ctx.config.REVOCATION_REGISTRY_ADDRESS,
      did_registry_contract_address: ctx.config.DID_REGISTRY_ADDRESS,
    },
  };
  return sign(ctx, caller, credential, input.subjectAddress, key);
}

/** The W3C VC API shape: the caller's unsigned credential, whose issuer must be this issuer. */
export async function issueGiven(ctx: IssueContext, caller: Caller, given: Record<string, unknown>) {
  const key = await ctx.keys.current();
  const issuer = typeof given.issuer === 'object' && given.issuer !== null ? (given.issuer as { id?: unknown }).id : given.issuer;
  if (issuer !== key.controller) {
    throw new ValidationError([{ field: 'credential.issuer', message: `must be this issuer's DID, ${key.controller}` }]);
  }
  const credential = {
    ...given,
    id: typeof given.id === 'string' ? given.id : `urn:uuid:${randomUUID()}`,
    validFrom: typeof given.validFrom === 'string' ? given.validFrom : iso(ctx.now()),
  } as unknown as Credential;
  const subject = typeof credential.credentialSubject?.id === 'string' ? (credential.credentialSubject.id as string) : '';
  return sign(ctx, caller, credential, subject.replace(/^did:ethr:/, ''), key);
}

async function sign(ctx: IssueContext, caller: Caller, credential: Credential, subjectAddress: string, key: IssuerKey): Promise<Credential> {
  const mandatoryPointers = ['/issuer', '/validFrom', ...(credential.validUntil ? ['/validUntil'] : []), ...(credential.credentialStatus ? ['/credentialStatus'] : [])];
  let signed: Credential;
  try {
    signed = await ctx.pool.run<Credential>('sign', { credential, key, created: new Date(Date.parse(String(credential.validFrom)) || ctx.now().getTime()), mandatoryPointers });
  } catch (err) {
    // The libraries refuse what JSON-LD cannot sign as given (undefined terms, bad dates, …).
    if (err instanceof SigningJobError) throw new HttpError(400, 'invalid_credential', `The credential cannot be signed: ${err.message}`);
    throw err;
  }
  const uuid = /^urn:uuid:([0-9a-f-]{36})$/i.exec(signed.id)?.[1];
  if (uuid) {
    const subject = signed.credentialSubject;
    await ctx.db.issuedCredential.create({
      data: {
        id: uuid,
        apiKeyId: caller.apiKeyId,
        organizationId: caller.organizationId,
        subjectAddress,
        issuerDid: key.controller,
        verificationMethod: key.id,
        claimNames: Object.keys(subject).filter((k) => k !== 'id'),
        validFrom: new Date(String(signed.validFrom)),
        validUntil: signed.validUntil ? new Date(String(signed.validUntil)) : null,
      },
    });
  }
  return signed;
}
