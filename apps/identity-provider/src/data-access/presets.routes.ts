import { type Request, Router } from 'express';
import { handle, methodNotAllowed, openCors } from '@svc/http';
import { PRESET_LISTING, resolvePreset, type PresetName } from '@svc/presets';
import { ZPresetBatchRequest, ZPresetParams } from '@svc/schemas';
import type { DataAccessDeps } from './deps.js';
import { PresetError } from '../errors.js';
import { checkPresetAccess, presetOutcome, readPresets } from './read-presets.js';
import { requireDataAccess } from './data-access.js';
import { requireSignInFor } from './step-up.js';

// What each read touches, from the request handle() has checked.
const batchNames = (req: Request) => (req.body as { presets: string[] }).presets;
const pathName = (req: Request) => [String(req.params.preset_name)];

export function presetsRouter(deps: DataAccessDeps): Router {
  const router = Router();
  // The catalog holds no user data: public and cacheable, like the discovery documents.
  router
    .route('/v2/presets')
    .options(openCors)
    .get(openCors, (_req, res) => {
      res.set('Cache-Control', 'public, max-age=300').json({ presets: PRESET_LISTING });
    })
    .all(methodNotAllowed);

  router
    .route('/v2/presets/batch')
    .options(openCors)
    .post(
      openCors,
      handle({ body: ZPresetBatchRequest }, requireDataAccess(deps), requireSignInFor(deps, batchNames), async ({ body }, _req, res) => {
        const { access, now, subject } = res.locals.dataRead!;
        res.set('Cache-Control', 'no-store').json(await readPresets(body.presets, access, subject, now));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/v2/presets/:preset_name')
    .options(openCors)
    .get(
      openCors,
      handle({ params: ZPresetParams }, requireDataAccess(deps), requireSignInFor(deps, pathName), async ({ params }, _req, res) => {
        const { access, now, subject } = res.locals.dataRead!;
        const name = params.preset_name;
        const refused = checkPresetAccess(name, access);
        if (refused) throw refused;
        const outcome = presetOutcome(resolvePreset(name as PresetName, await subject(), now), access);
        if (outcome instanceof PresetError) throw outcome;
        res.set('Cache-Control', 'no-store').json(outcome);
      }),
    )
    .all(methodNotAllowed);
  return router;
}
