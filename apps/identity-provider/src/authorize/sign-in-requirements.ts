/**
 * What an authorization request asks of the person's sign-in (OpenID Connect Core §3.1.2.1 and
 * §5.5.1.1): `prompt`, `max_age`, `acr_values` (voluntary) or an essential `acr` in `claims`, with
 * the client's `default_acr_values` and `default_max_age` when the request names none; and whether
 * a session meets it.
 */
import { type Acr, ACR_VALUES, acrMeets, isAcr } from '@svc/schemas';
import type { Application } from '../clients/application.js';
import { RedirectableError } from '../errors.js';

export const PROMPT_VALUES = ['none', 'login', 'consent'] as const;
type Prompt = (typeof PROMPT_VALUES)[number];

/** A max_age past ten years is a typo, not a policy. */
const MAX_AGE_LIMIT = 10 * 365 * 86_400;

/** As the request sends them (a query string's text, or a request object's JSON). */
export interface SentRequirements {
  prompt?: string | undefined;
  max_age?: string | number | undefined;
  acr_values?: string | undefined;
  claims?: string | Record<string, unknown> | undefined;
}

/** As an authorization keeps them. */
export interface SignInRequirements {
  prompt: Prompt[];
  /** Seconds; null: any age. */
  maxAge: number | null;
  /** The acceptable acr values this service knows, as asked; empty: any. */
  acrValues: Acr[];
  /** An essential acr claim: a sign-in that cannot meet it ends the request (unmet_authentication_requirements). */
  acrEssential: boolean;
}

const invalid = (description: string) => new RedirectableError('invalid_request', description);

function promptOf(sent: string | undefined): Prompt[] {
  const values = [...new Set((sent ?? '').split(' ').filter(Boolean))];
  const unknown = values.filter((v) => !(PROMPT_VALUES as readonly string[]).includes(v));
  if (unknown.length) throw invalid(`prompt ${unknown.join(' ')} is not supported: use ${PROMPT_VALUES.join(', ')}`);
  if (values.includes('none') && values.length > 1) throw invalid('prompt=none cannot be combined with other values');
  return values as Prompt[];
}

function maxAgeOf(sent: string | number | undefined, fallback: number | null): number | null {
  if (sent === undefined) return fallback;
  const value = typeof sent === 'number' ? sent : /^\d{1,10}$/.test(sent) ? Number(sent) : Number.NaN;
  if (!Number.isInteger(value) || value < 0 || value > MAX_AGE_LIMIT) throw invalid(`max_age must be a whole number of seconds from 0 to ${MAX_AGE_LIMIT}`);
  return value;
}

/** The `acr` member of the claims request (its id_token or userinfo part), if any. */
function acrClaimOf(sent: SentRequirements['claims']): { essential: boolean; values: string[] } | undefined {
  if (sent === undefined) return undefined;
  let claims: unknown = sent;
  if (typeof sent === 'string') {
    try {
      claims = JSON.parse(sent);
    } catch {
      throw invalid('claims must be a JSON object (OpenID Connect Core §5.5)');
    }
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) throw invalid('claims must be a JSON object (OpenID Connect Core §5.5)');
  const parts = claims as Record<string, unknown>;
  for (const where of ['id_token', 'userinfo']) {
    const part = parts[where];
    if (part === undefined || part === null) continue;
    if (typeof part !== 'object' || Array.isArray(part)) throw invalid(`claims.${where} must be an object`);
    const acr = (part as Record<string, unknown>).acr;
    if (acr === undefined || acr === null) continue;
    if (typeof acr !== 'object' || Array.isArray(acr)) throw invalid(`claims.${where}.acr must be null or an object`);
    const { essential, value, values } = acr as Record<string, unknown>;
    if (essential !== undefined && typeof essential !== 'boolean') throw invalid(`claims.${where}.acr.essential must be true or false`);
    if (value !== undefined && typeof value !== 'string') throw invalid(`claims.${where}.acr.value must be a string`);
    if (values !== undefined && !(Array.isArray(values) && values.length <= 10 && values.every((v) => typeof v === 'string')))
      throw invalid(`claims.${where}.acr.values must be an array of at most 10 strings`);
    return { essential: essential === true, values: value !== undefined ? [value] : ((values as string[] | undefined) ?? []) };
  }
  return undefined;
}

/**
 * The request's requirements, checked. An essential acr naming only values this service does not
 * issue cannot be met by anyone: refused at once. Voluntary values it does not know are ignored.
 */
export function signInRequirementsOf(app: Pick<Application, 'defaultAcrValues' | 'defaultMaxAge'>, sent: SentRequirements): SignInRequirements {
  const prompt = promptOf(sent.prompt);
  const maxAge = maxAgeOf(sent.max_age, app.defaultMaxAge);
  const claim = acrClaimOf(sent.claims);
  const asked = claim ? claim.values : sent.acr_values !== undefined ? sent.acr_values.split(' ').filter(Boolean) : app.defaultAcrValues;
  const acrValues = [...new Set(asked.filter(isAcr))];
  const acrEssential = claim?.essential === true && claim.values.length > 0;
  if (acrEssential && acrValues.length === 0)
    throw new RedirectableError('unmet_authentication_requirements', `acr ${claim!.values.join(' ')} is not issued here: use one of ${ACR_VALUES.join(', ')}`);
  return { prompt, maxAge, acrValues, acrEssential };
}

/** The weakest acr the request accepts, if it names any. */
export const weakestAcr = (acrValues: string[]): Acr | undefined => ACR_VALUES.find((acr) => acrValues.includes(acr));

/** Why the person must sign in (again) for a request: nobody is, a fresh sign-in asked, too old, or not strong enough. */
export type SignInNeed = 'no_session' | 'login' | 'max_age' | 'acr';

/** The verdict on a session for a request: good; a sign-in first (and why); or an essential acr this sign-in did not meet. */
export type SignInVerdict = { ok: true } | { ok: false; need: SignInNeed } | { ok: false; unmet: true };

/**
 * Whether `session` answers a request made at `requestedAt` with these requirements, at `now`. A
 * sign-in made after the request answers prompt=login and max_age; one that still does not meet an
 * acr is good enough for acr_values (voluntary: the token says what it was), not for an essential acr.
 */
export function judgeSignIn(
  requirements: { prompt: string[]; maxAge: number | null; acrValues: string[]; acrEssential: boolean },
  requestedAt: Date,
  session: { authTime: Date; acr: Acr } | undefined,
  now: Date,
): SignInVerdict {
  if (!session) return { ok: false, need: 'no_session' };
  const fresh = session.authTime >= requestedAt;
  if (!fresh && requirements.prompt.includes('login')) return { ok: false, need: 'login' };
  if (!fresh && requirements.maxAge !== null && now.getTime() - session.authTime.getTime() > requirements.maxAge * 1000) return { ok: false, need: 'max_age' };
  const wanted = weakestAcr(requirements.acrValues);
  if (wanted && !acrMeets(session.acr, wanted)) {
    if (!fresh) return { ok: false, need: 'acr' };
    if (requirements.acrEssential) return { ok: false, unmet: true };
  }
  return { ok: true };
}
