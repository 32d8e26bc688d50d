import { randomUUID } from 'node:crypto';
import type { Db, Sql } from '@svc/db';
import type { Clock } from '@svc/runtime';
import { isUniqueViolation, outboxInsert } from '@svc/db';
import { ValidationError } from '@svc/http';
import { webhookEvent } from '@svc/schemas';
import { invalidField } from '../http/errors.js';
import { alreadyIssuedOnApproval, duplicateCredential, notSignable } from './errors.js';
import type { Config } from '../config.js';
import { SigningJobError, type SigningPool } from '../vc/signing-pool.js';
import { CREDENTIALS_V2, STATUS_LIST_V1, UNDEFINED_TERMS_V2 } from '../vc/document-loader.js';
import type { IssuerKey, IssuerKeys } from '../keys/issuer-keys.js';
import { isDataModelV1, validityMembers } from './credential-structure.js';
import { STATEMENT_LIMITS, statementProblems } from './statement-limits.js';
import { allocateStatusIndex, BITSTRING_ENTRY, bitstringEntry, type StatusListPlace } from '../status-lists/status-lists.js';

type Subject = Record<string, unknown>;
export type Credential = Record<string, unknown> & { id: string; credentialSubject: Subject | Subject[] };

const subjectsOf = (credential: Credential) => (Array.isArray(credential.credentialSubject) ? credential.credentialSubject : [credential.credentialSubject]);

export interface IssueContext {
  db: Db;
  sql: Sql;
  config: Config;
  keys: IssuerKeys;
  pool: SigningPool;
  clock: Clock;
}

export interface Caller {
  /** The API key that asks; null when a person's approval at the identity provider does (a wallet's authorization code flow). */
  apiKeyId: string | null;
  organizationId: string;
  /** That approval, as `<authorization id>#<configuration id>`: one credential is issued on it. */
  approval?: string | undefined;
}

// Seconds precision, as Data Integrity proofs and most verifiers print dateTimes.
export const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

// The W3C's namespace for issuer-dependent terms: what the undefined-terms context maps to.
const ISSUER_DEPENDENT = 'https://www.w3.org/ns/credentials/issuer-dependent#';

/**
 * The issuer's own status entry. In the VC API shape (`recordId` given) it names the record and
 * defines its own terms in an embedded context, so a caller's credential needs no context beyond
 * what its own members use (the spec's shape carries the undefined-terms context instead).
 */
function statusEntry(config: Config, recordId?: string) {
  return {
    ...(recordId ? { '@context': { '@vocab': ISSUER_DEPENDENT }, id: `urn:uuid:${recordId}` } : {}),
    type: config.CREDENTIAL_STATUS_TYPE,
    chain_id: config.CHAIN_ID,
    revocation_registry_contract_address: config.REVOCATION_REGISTRY_ADDRESS,
    did_registry_contract_address: config.DID_REGISTRY_ADDRESS,
  };
}

/** The spec's shape: a credential about `did:ethr:<subject>` carrying every claim as given. */
export async function issueForSubject(
  ctx: IssueContext,
  caller: Caller,
  input: { subjectAddress: string; claims: Record<string, unknown>; validUntil?: string | undefined },
) {
  const key = await ctx.keys.current();
  const now = ctx.clock.now();
  const recordId = randomUUID();
  // No end: validUntil is left out, since VC DM 2.0 §4.9 makes a present one an XML Schema
  // dateTimeStamp (which "" is not), and the W3C suites refuse an empty one.
  const validUntil =
    input.validUntil ?? (ctx.config.CREDENTIAL_VALIDITY_SECONDS ? iso(new Date(now.getTime() + ctx.config.CREDENTIAL_VALIDITY_SECONDS * 1000)) : undefined);
  const credential: Credential = {
    '@context': [CREDENTIALS_V2, UNDEFINED_TERMS_V2],
    id: `urn:uuid:${recordId}`,
    type: ['VerifiableCredential'],
    issuer: key.controller,
    validFrom: iso(now),
    ...(validUntil ? { validUntil } : {}),
    credentialSubject: { id: `did:ethr:${input.subjectAddress}`, ...input.claims },
    credentialStatus: statusEntry(ctx.config),
  };
  return sign(ctx, caller, credential, input.subjectAddress, key, recordId);
}

const invalid = (field: string, message: string) => invalidField(`body.credential.${field}`, message);

/**
 * The W3C VC API shape: the caller's unsigned credential, whose issuer must be this issuer;
 * `mandatoryPointers` are disclosed in every derivation, beside the issuer's own; `credentialStatus`
 * chooses the status entries (a Bitstring Status List entry, the registry entry, or both).
 */
export async function issueGiven(
  ctx: IssueContext,
  caller: Caller,
  given: Record<string, unknown>,
  options: {
    mandatoryPointers?: string[] | undefined;
    credentialStatus?: { type: string } | { type: string }[] | undefined;
    /** Whom `GET /credentials?subject_address=` lists it under, when the subject is not a did:ethr (a wallet's did:jwk). */
    subjectAddress?: string;
  } = {},
) {
  const statusTypes = statusTypesOf(ctx.config, given, options.credentialStatus);
  const key = await ctx.keys.current();
  const issuer = typeof given.issuer === 'object' && given.issuer !== null ? (given.issuer as { id?: unknown }).id : given.issuer;
  if (issuer !== key.controller) {
    throw invalidField('credential.issuer', `must be this issuer's DID, ${key.controller}`);
  }
  // Never change what the caller asked to be signed: a bad member is refused, not replaced.
  if (Object.hasOwn(given, 'id') && (typeof given.id !== 'string' || !URL.canParse(given.id)))
    throw invalid('id', 'must be a URL (e.g. urn:uuid:… or https://…), or left out for the issuer to assign one');
  const { from, until } = validityMembers(given);
  const isDate = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v));
  if (Object.hasOwn(given, from) && !isDate(given[from])) throw invalid(from, 'must be an XML Schema dateTime string, or left out');
  if (Object.hasOwn(given, until) && !isDate(given[until])) throw invalid(until, 'must be an XML Schema dateTime string, or left out');
  // Every credential this issuer signs is recorded and revocable through the issuer's own status.
  if (Object.hasOwn(given, 'credentialStatus')) throw invalid('credentialStatus', 'is set by this issuer (its own revocation entry); leave it out');
  const recordId = randomUUID();
  const place = statusTypes.has(BITSTRING_ENTRY) ? await allocateStatusIndex(ctx.db, ctx.sql, key.controller) : undefined;
  const statuses = [
    ...(statusTypes.has(ctx.config.CREDENTIAL_STATUS_TYPE) ? [statusEntry(ctx.config, recordId)] : []),
    ...(place ? [bitstringEntry(ctx.config.publicUrl, place)] : []),
  ];
  const credential = {
    ...given,
    id: (given.id as string | undefined) ?? `urn:uuid:${recordId}`,
    [from]: (given[from] as string | undefined) ?? iso(ctx.clock.now()),
    credentialStatus: statuses.length === 1 ? statuses[0] : statuses,
  } as unknown as Credential;
  // The record is listed under the first subject (the one the simple shape would name).
  const subject = subjectsOf(credential)[0]?.id;
  const subjectAddress = options.subjectAddress ?? (typeof subject === 'string' ? subject.replace(/^did:ethr:/, '') : '');
  return sign(ctx, caller, credential, subjectAddress, key, recordId, options.mandatoryPointers, place);
}

/**
 * VC API `options.credentialStatus`: the types asked for, each one this issuer offers; all offered
 * by default. A VC 1.1 credential defines the list entry's terms only with the status list context.
 */
function statusTypesOf(config: Config, credential: Record<string, unknown>, chosen: { type: string } | { type: string }[] | undefined): Set<string> {
  const listDefined = !isDataModelV1(credential) || (credential['@context'] as unknown[]).includes(STATUS_LIST_V1);
  const offered = [...(listDefined ? [BITSTRING_ENTRY] : []), config.CREDENTIAL_STATUS_TYPE];
  if (chosen === undefined) return new Set(offered);
  const list = Array.isArray(chosen) ? chosen : [chosen];
  list.forEach(({ type }, i) => {
    const field = `body.options.credentialStatus${Array.isArray(chosen) ? `[${i}]` : ''}.type`;
    if (type === BITSTRING_ENTRY && !listDefined)
      throw invalidField(field, `a VC 1.1 credential needs ${STATUS_LIST_V1} in its @context for ${BITSTRING_ENTRY}`);
    if (!offered.includes(type)) throw invalidField(field, `must be one of ${[BITSTRING_ENTRY, config.CREDENTIAL_STATUS_TYPE].join(', ')}`);
  });
  return new Set(list.map(({ type }) => type));
}

/**
 * Signs and records `credential` under `recordId`. Its `id` is unique within the organization (a
 * duplicate is 409 before any signing work); another organization's use of the same id is neither
 * refused nor revealed, since revocation follows the record named in credentialStatus, not the id.
 */
async function sign(
  ctx: IssueContext,
  caller: Caller,
  credential: Credential,
  subjectAddress: string,
  key: IssuerKey,
  recordId: string,
  callerPointers: string[] = [],
  place?: StatusListPlace,
): Promise<Credential> {
  // Bounded before any work, whichever way it came (the routes name the caller's field first).
  const tooMany = statementProblems(credential, 'body.credential', STATEMENT_LIMITS.document, 'one credential');
  if (tooMany.length) throw new ValidationError(tooMany);
  if (
    await ctx.db.issuedCredential.findUnique({
      where: { organizationId_credentialId: { organizationId: caller.organizationId, credentialId: credential.id } },
      select: { id: true },
    })
  ) {
    throw duplicateCredential(credential.id);
  }
  // The issuer's own pointers first: who issued it, when it is valid and how to check revocation
  // are disclosed in every derived credential, whatever the holder selects.
  const { from, until } = validityMembers(credential);
  const mandatoryPointers = [
    ...new Set([
      '/issuer',
      `/${from}`,
      ...(credential[until] ? [`/${until}`] : []),
      ...(credential.credentialStatus ? ['/credentialStatus'] : []),
      ...callerPointers,
    ]),
  ];
  let signed: Credential;
  try {
    signed = await ctx.pool.run<Credential>(
      'sign',
      { credential, key, created: new Date(Date.parse(String(credential[from])) || ctx.clock.now().getTime()), mandatoryPointers },
      // Signing is shared fairly between callers: each organization (whatever number of API keys
      // it has), and each approval at the identity provider.
      caller.approval ? `approval:${caller.approval}` : `organization:${caller.organizationId}`,
    );
  } catch (err) {
    // A member the issuer judges, written under another name (../vc/signed-facts.js).
    if (err instanceof SigningJobError && err.originalName === 'DisguisedMemberError') throw invalidField('body.credential', err.message);
    // The libraries refuse what JSON-LD cannot sign as given (undefined terms, bad dates, …).
    if (err instanceof SigningJobError) throw notSignable(err.message);
    throw err;
  }
  try {
    const recorded = ctx.db.issuedCredential.create({
      data: {
        id: recordId,
        credentialId: signed.id,
        apiKeyId: caller.apiKeyId,
        organizationId: caller.organizationId,
        subjectAddress,
        issuerDid: key.controller,
        verificationMethod: key.id,
        claimNames: [...new Set(subjectsOf(signed).flatMap((subject) => Object.keys(subject)))].filter((k) => k !== 'id'),
        validFrom: new Date(String(signed[from])),
        validUntil: signed[until] ? new Date(String(signed[until])) : null,
        statusListId: place?.listId ?? null,
        statusListIndex: place?.index ?? null,
        approval: caller.approval ?? null,
      },
    });
    // The organization's webhook endpoints hear of it if and only if the record commits.
    const told = outboxInsert(ctx.db, {
      organizationId: caller.organizationId,
      event: webhookEvent('credential.issued', { credential_id: signed.id }),
      subject: signed.id,
    });
    await ctx.db.$transaction([recorded, told]);
  } catch (err) {
    // A concurrent request recorded the same approval's credential, or the same organization the same id, first.
    if (isUniqueViolation(err)) throw caller.approval ? alreadyIssuedOnApproval() : duplicateCredential(signed.id);
    throw err;
  }
  return signed;
}
