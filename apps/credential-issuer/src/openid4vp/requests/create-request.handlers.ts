import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { handle } from '@svc/http';
import { compileQuery, QueryError } from '@svc/query-engine';
import { type CreatePresentationRequest, PRESENTATION_FORMATS, PRESENTATION_REQUEST_SECONDS, ZCreatePresentationRequest } from '@svc/schemas';
import type { JWK } from 'jose';
import { invalidField } from '../../http/errors.js';
import { certificatesProblem } from '../../keys/verifier-key.js';
import type { Openid4vpDeps } from '../deps.js';
import { tooManyOpenRequests } from '../errors.js';
import { presetQuery } from './preset-queries.js';
import { type AskedFor, responseKeyLabel } from './presentation-requests.js';
import { signRequestObject } from './request-object.js';

export const requestObjectUri = (publicUrl: string, id: string) => `${publicUrl}/presentation-requests/${id}/request-object`;
export const responseUri = (publicUrl: string, id: string) => `${publicUrl}/presentation-requests/${id}/response`;

/** The DCQL query the request stands for, refused (400, naming the field) where no wallet could answer it or it cannot be checked. */
function askedFor(body: CreatePresentationRequest, publicUrl: string): AskedFor {
  const formats = body.formats ?? PRESENTATION_FORMATS;
  let dcql = body.dcql_query;
  if (body.presets) {
    const built = presetQuery(body.presets, formats, publicUrl);
    if ('unanswerable' in built) throw invalidField('presets', `no credential of the formats asked for answers ${built.unanswerable}`);
    dcql = built.query;
  }
  for (const [i, credential] of dcql!.credentials.entries())
    if (!formats.includes(credential.format))
      throw invalidField(
        `dcql_query.credentials[${i}].format`,
        `${credential.format} presentations are not verified by this service (accepted: ${formats.join(', ')})`,
      );
  const ids = new Set(dcql!.credentials.map((c) => c.id));
  for (const [i, set] of (dcql!.credential_sets ?? []).entries())
    if (set.options.flat().some((id) => !ids.has(id)))
      throw invalidField(`dcql_query.credential_sets[${i}].options`, 'names a credential query id the query does not have');
  if (body.policy) {
    const names = new Set<string>([...(body.presets ?? []), ...ids]);
    try {
      const unknown = compileQuery({ policy: body.policy }).presets.find((p) => !names.has(p));
      if (unknown) throw invalidField('policy', `reads ${unknown}, which this request does not ask for (${[...names].join(', ')})`);
    } catch (err) {
      if (err instanceof QueryError) throw invalidField(`policy${err.path.replace(/^query\.policy/, '')}`, err.reason);
      throw err;
    }
  }
  for (const [i, trusted] of (body.trusted_issuers ?? []).entries()) {
    const problem = trusted.includes('-----BEGIN CERTIFICATE-----') ? certificatesProblem(trusted) : undefined;
    if (problem) throw invalidField(`trusted_issuers[${i}]`, problem);
  }
  return {
    dcql_query: dcql!,
    response_mode: body.response_mode,
    ...(body.presets ? { presets: body.presets } : {}),
    ...(body.policy ? { policy: body.policy as Record<string, unknown> } : {}),
    ...(body.trusted_issuers ? { trusted_issuers: body.trusted_issuers } : {}),
    ...(body.expected_origins ? { expected_origins: body.expected_origins } : {}),
    ...(body.purpose ? { purpose: body.purpose } : {}),
    ...(body.redirect_uri ? { redirect_uri: body.redirect_uri } : {}),
  };
}

/** POST /presentation-requests: what to ask a wallet, signed for it to fetch (a link) or to be handed (the DC API). */
export function createPresentationRequestHandler(deps: Openid4vpDeps) {
  const publicUrl = deps.config.publicUrl;
  return handle({ body: ZCreatePresentationRequest }, async ({ body }, _req, res) => {
    const checked = askedFor(body, publicUrl);
    const signer = await deps.verifierKey.signer();
    const asked = { ...checked, client_id: signer.clientId };
    const id = randomUUID();
    const now = deps.clock.now();
    const caller = res.locals.caller!;
    // Each open request holds a key and a row: an organization holds so many at once, whatever its number of keys.
    const open = await deps.db.presentationRequest.count({ where: { organizationId: caller.organizationId, status: 'pending', expiresAt: { gt: now } } });
    if (open >= deps.config.PRESENTATION_REQUESTS_OPEN_PER_ORGANIZATION) throw tooManyOpenRequests(deps.config.PRESENTATION_REQUESTS_OPEN_PER_ORGANIZATION);
    const expiresAt = new Date(now.getTime() + PRESENTATION_REQUEST_SECONDS * 1000);
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    // Its kid is its own, not the request's id: the key is public, the id stays the integrator's.
    const publicJwk: JWK = { ...(publicKey.export({ format: 'jwk' }) as JWK), kid: randomBytes(12).toString('base64url'), use: 'enc', alg: 'ECDH-ES' };
    const nonce = randomBytes(24).toString('base64url');
    const state = randomBytes(24).toString('base64url');
    await deps.db.presentationRequest.create({
      data: {
        id,
        organizationId: caller.organizationId,
        apiKeyId: caller.apiKeyId,
        query: asked as never,
        nonce,
        state,
        responseKey: { publicJwk, sealed: deps.keyEncryption.seal(privateKey.export({ format: 'jwk' }), responseKeyLabel(id)) } as never,
        expiresAt,
      },
    });
    const requestUri = requestObjectUri(publicUrl, id);
    const dcApi =
      asked.expected_origins &&
      (await signRequestObject(signer, { asked, nonce, state, responseKey: publicJwk, expiresAt, now }, 'dc_api.jwt').then((request) => ({
        protocol: 'openid4vp-v1-signed' as const,
        data: { request },
      })));
    res
      .status(201)
      .set('Cache-Control', 'no-store')
      .json({
        id,
        status: 'pending',
        expires_at: expiresAt.toISOString(),
        request_uri: requestUri,
        request_link: `openid4vp://?${new URLSearchParams({ client_id: signer.clientId, request_uri: requestUri })}`,
        ...(dcApi ? { dc_api: dcApi } : {}),
        dcql_query: asked.dcql_query,
      });
  });
}
