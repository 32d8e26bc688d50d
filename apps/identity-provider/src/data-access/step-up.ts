/**
 * RFC 9470 step-up: an application may say what its tokens need to read presets of high or
 * critical sensitivity (`sensitive_data_acr`, `sensitive_data_max_age`). A read that touches one
 * with a token from a weaker or older sign-in is refused with the challenge that says what to ask
 * for; the client sends the person through authorization again with those values.
 */
import { authChallenge } from '@svc/http';
import { isPresetName, presetDefinition } from '@svc/presets';
import { acrMeets, isAcr } from '@svc/schemas';
import type { Request, RequestHandler } from 'express';
import { PresetError } from '../errors.js';
import type { DataAccessDeps } from './deps.js';

const SENSITIVE: readonly string[] = ['high', 'critical'];

/** The token's sign-in, and what its client asks for sensitive reads. */
export interface StepUp {
  signedIn: { acr: string | undefined; authTime: number | undefined };
  needs: { acr: string | null; maxAge: number | null };
}

declare module 'express-serve-static-core' {
  interface Locals {
    /** Left by requireDataAccess, read by requireSignInFor. */
    stepUp?: StepUp;
  }
}

export function insufficientUserAuthentication(needs: StepUp['needs']): PresetError {
  const asked = [needs.acr ? `acr ${needs.acr}` : undefined, needs.maxAge !== null ? `a sign-in within ${needs.maxAge} s` : undefined]
    .filter(Boolean)
    .join(' and ');
  const values = { ...(needs.acr ? { acr_values: needs.acr } : {}), ...(needs.maxAge !== null ? { max_age: String(needs.maxAge) } : {}) };
  return new PresetError('E4011', `Reading this needs ${asked}: send the person through authorization again with these values`, {
    subcode: 'step_up_required',
    context: { ...(needs.acr ? { acr_values: needs.acr } : {}), ...(needs.maxAge !== null ? { max_age: needs.maxAge } : {}) },
    headers: {
      'WWW-Authenticate': authChallenge('Bearer', {
        error: 'insufficient_user_authentication',
        error_description: 'A stronger or more recent sign-in is needed',
        ...values,
      }),
    },
  });
}

/** Whether a token of `signedIn` meets `needs` at `now`. */
export function meetsStepUp({ signedIn, needs }: StepUp, now: Date): boolean {
  if (needs.acr && !(signedIn.acr && isAcr(signedIn.acr) && isAcr(needs.acr) && acrMeets(signedIn.acr, needs.acr))) return false;
  if (needs.maxAge !== null && (signedIn.authTime === undefined || now.getTime() - signedIn.authTime * 1000 > needs.maxAge * 1000)) return false;
  return true;
}

/**
 * After requireDataAccess, on a route that reads the presets `namesOf` finds in the request (its
 * path, its body, its query's checks): refuses when one is sensitive and the token falls short.
 */
export function requireSignInFor(deps: Pick<DataAccessDeps, 'clock'>, namesOf: (req: Request) => readonly string[]): RequestHandler {
  return (req, res, next) => {
    const stepUp = res.locals.stepUp;
    if (!stepUp || (stepUp.needs.acr === null && stepUp.needs.maxAge === null)) return next();
    const sensitive = namesOf(req).some((name) => isPresetName(name) && SENSITIVE.includes(presetDefinition(name)!.sensitivity));
    if (sensitive && !meetsStepUp(stepUp, deps.clock.now())) throw insufficientUserAuthentication(stepUp.needs);
    next();
  };
}
