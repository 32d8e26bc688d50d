import { ValidationError } from '@svc/http';
import { isPresetName, presetDefinition, resolvePreset, type PresetName, type Resolution, type SubjectData } from '@svc/presets';
import { compileQuery, QueryError, type ClaimRecord, type QueryResult } from '@svc/query-engine';
import { PresetError } from '../errors.js';
import type { DataAccess } from './read-presets.js';

/**
 * POST /v2/queries/evaluate: compile (400 with the JSON path of a malformed node), refuse unknown
 * presets (E4044) and any preset the token's scopes do not cover, wherever in the query it sits,
 * short-circuited branches included (E4003); then evaluate over the user's data. A preset whose
 * verification is not valid reads as absent, so only isDefined can pass on it.
 */
export async function evaluateQuery(query: Record<string, unknown>, access: DataAccess, subject: () => Promise<SubjectData>, now: Date): Promise<QueryResult> {
  const compiled = asBadRequest(() => compileQuery(query));
  const unknown = compiled.presets.filter((p) => !isPresetName(p));
  if (unknown.length) throw new PresetError('E4044', `No preset named ${unknown.join(', ')}`, { context: { presets: unknown } });
  const uncovered = compiled.presets.filter((p) => !access.scopes.includes(presetDefinition(p)!.scope));
  if (uncovered.length) {
    const needed = [...new Set(uncovered.map((p) => presetDefinition(p)!.scope))];
    throw new PresetError('E4003', `The query reads ${uncovered.join(', ')}, which needs ${needed.join(', ')}`, {
      context: { presets: uncovered, required_scopes: needed },
    });
  }
  const data = await subject();
  const resolved = new Map<string, Resolution>();
  const lookup = (preset: string): ClaimRecord | undefined => {
    let r = resolved.get(preset);
    if (!r) {
      r = resolvePreset(preset as PresetName, data, now);
      resolved.set(preset, r);
    }
    if (r.status !== 'valid') return undefined;
    return {
      value: r.value,
      ...(r.evidence?.credential_id ? { credentialId: r.evidence.credential_id } : {}),
      ...(r.evidence ? { source: r.evidence.source } : {}),
      ...(r.expiresAt ? { expiresAt: r.expiresAt.toISOString() } : {}),
    };
  };
  // A lens that does not fit the value it meets is also the query's fault, found only now.
  return asBadRequest(() => compiled.evaluate(lookup, now));
}

function asBadRequest<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof QueryError) throw new ValidationError([{ field: `body.${err.path}`, message: err.reason }]);
    throw err;
  }
}
