import { compileQuery, type ClaimRecord, type PredicateResult } from '@svc/query-engine';
import { PRESENTABLE_PRESETS, type PresentablePreset, type PresentationFormat } from '@svc/schemas';
import { z } from 'zod';
import { readClaimPath } from '../formats/claim-paths.js';
import { verifyLdpVc } from '../formats/ldp-vc.js';
import { verifyMdoc } from '../formats/mdoc.js';
import type { FormatVerifier, PresentationContext, PresentedCredential } from '../formats/presented.js';
import { verifySdJwtVc } from '../formats/sd-jwt-vc.js';
import { presetPath } from '../requests/preset-queries.js';
import type { AskedFor, Outcome } from '../requests/presentation-requests.js';
import { Refusal, refuse } from '../refusals.js';

/** One verifier per format a wallet may present. */
export const FORMAT_VERIFIERS: Record<PresentationFormat, FormatVerifier> = { 'dc+sd-jwt': verifySdJwtVc, mso_mdoc: verifyMdoc, ldp_vc: verifyLdpVc };

/** The decrypted answer (OpenID4VP 1.0 §8.1): one presentation per credential query (`multiple` is never asked). */
export const ZAnswer = z.object({
  vp_token: z.record(
    z.string().max(64),
    z
      .array(z.union([z.string().min(1).max(200_000), z.record(z.string(), z.unknown())]))
      .min(1)
      .max(1),
  ),
  state: z.string().max(200).optional(),
});
export type Answer = z.infer<typeof ZAnswer>;

type Shared = Omit<PresentationContext, 'query'>;

/** Whether the verified credentials satisfy every required credential set (all queries, when there are none). */
function satisfiesSets(asked: AskedFor, answered: Set<string>): boolean {
  const sets = asked.dcql_query.credential_sets ?? [{ options: [asked.dcql_query.credentials.map((c) => c.id)], required: true }];
  return sets.every((set) => set.required === false || set.options.some((option) => option.every((id) => answered.has(id))));
}

/** Each asked preset from the first verified credential that answers it. */
function presetsOf(asked: AskedFor, verified: Map<string, PresentedCredential>, now: Date) {
  const presets: Record<
    string,
    {
      value: unknown;
      format: PresentationFormat;
      issuer: string;
      verified_at: string;
      expires_at: string | null;
      vouched_by?: 'identity_provider' | 'organization';
    }
  > = {};
  for (const preset of asked.presets ?? []) {
    for (const [queryId, credential] of verified) {
      const path = presetPath(queryId, preset);
      const value = path && readClaimPath(credential.claims, path).find((v) => v !== undefined);
      if (value === undefined) continue;
      presets[preset] = {
        value,
        format: credential.format,
        issuer: credential.issuer,
        verified_at: now.toISOString(),
        expires_at: credential.expiresAt?.toISOString() ?? null,
        ...(credential.vouchedBy ? { vouched_by: credential.vouchedBy } : {}),
      };
      break;
    }
  }
  return presets;
}

/**
 * The policy over what was presented: presets by name, or for a DCQL query `<credential query
 * id>.<claim>`; the query engine's evidence shows each claim used and each check.
 */
function policyResult(asked: AskedFor, presets: ReturnType<typeof presetsOf>, verified: Map<string, PresentedCredential>, now: Date) {
  if (!asked.policy) return undefined;
  const lookup = (name: string): ClaimRecord | undefined => {
    if ((PRESENTABLE_PRESETS as readonly string[]).includes(name) && asked.presets) {
      const p = presets[name as PresentablePreset];
      return p && { value: p.value, source: p.issuer, ...(p.expires_at ? { expiresAt: p.expires_at } : {}) };
    }
    const credential = verified.get(name);
    return (
      credential && { value: credential.claims, source: credential.issuer, ...(credential.expiresAt ? { expiresAt: credential.expiresAt.toISOString() } : {}) }
    );
  };
  const result = compileQuery({ policy: asked.policy }).evaluate(lookup, now, { evidence: true }) as PredicateResult;
  return { result: result.passed, evidence: result.evidence as unknown as { claimsUsed: Record<string, unknown>[]; checkResults: Record<string, unknown>[] } };
}

/**
 * Checks a decrypted answer against its request: every presentation for a credential query that
 * was asked, each verified by its format, the credential sets satisfied; then the presets, the
 * claims and the policy. The first failed check makes the outcome `failed`, naming it.
 */
export async function verifyAnswer(asked: AskedFor, answer: Answer, shared: Shared): Promise<Outcome> {
  const verified = new Map<string, PresentedCredential>();
  try {
    const entries = Object.entries(answer.vp_token);
    if (entries.length === 0) refuse('vp_token', 'The answer presents no credential');
    for (const [queryId, [presentation]] of entries) {
      const query = asked.dcql_query.credentials.find((c) => c.id === queryId);
      if (!query) refuse('unrequested_credential', `The answer presents ${queryId.slice(0, 64)}, which the request did not ask for`);
      try {
        verified.set(queryId, await FORMAT_VERIFIERS[query!.format](presentation!, { ...shared, query: query! }));
      } catch (err) {
        throw err instanceof Refusal ? err.of(queryId) : err;
      }
    }
    if (!satisfiesSets(asked, new Set(verified.keys())))
      refuse('credential_sets', 'The credentials presented do not satisfy every credential set the request requires');
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    return { status: 'failed', errors: [err.toJSON()] };
  }
  const presets = presetsOf(asked, verified, shared.now);
  const policy = policyResult(asked, presets, verified, shared.now);
  return {
    status: 'verified',
    ...(asked.presets ? { presets } : {}),
    claims: Object.fromEntries([...verified].map(([id, credential]) => [id, credential.claims])),
    ...(policy ? { policy_result: policy } : {}),
  };
}
