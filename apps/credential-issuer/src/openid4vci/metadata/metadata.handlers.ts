import type { RequestHandler } from 'express';
import { handle } from '@svc/http';
import { z } from 'zod';
import { CREDENTIAL_CONFIGURATIONS } from './configurations.js';
import type { Openid4vciDeps } from '../deps.js';
import { encryptionMetadata } from '../credentials/encryption.js';
import { tokenEndpointAuthMethods } from '../wallet-attestation.js';
import { publicCache } from './http-caching.js';
import { authorizationServerMetadata, credentialIssuerMetadata, jwtVcIssuerMetadata, typeMetadata } from './metadata.js';

/** GET /.well-known/openid-credential-issuer */
export const credentialIssuerMetadataHandler =
  (deps: Openid4vciDeps): RequestHandler =>
  async (_req, res) => {
    const { config } = deps;
    res.set(publicCache(300)).json(
      credentialIssuerMetadata({
        publicUrl: config.publicUrl,
        displayName: config.ISSUER_DISPLAY_NAME,
        authorizationServer: config.authorizationServer?.issuer,
        batchSize: config.CREDENTIAL_BATCH_SIZE,
        keyAttestations: {
          taken: config.WALLET_PROVIDERS.length > 0,
          requiredFor: config.KEY_ATTESTATIONS_REQUIRED,
          levels: { keyStorage: config.KEY_ATTESTATION_KEY_STORAGE, userAuthentication: config.KEY_ATTESTATION_USER_AUTHENTICATION },
        },
        encryption: await encryptionMetadata(deps.requestEncryptionKey),
      }),
    );
  };

/** GET /.well-known/oauth-authorization-server */
export const authorizationServerMetadataHandler =
  (deps: Openid4vciDeps): RequestHandler =>
  (_req, res) => {
    res.set(publicCache(300)).json(authorizationServerMetadata(deps.config.publicUrl, tokenEndpointAuthMethods(deps.config)));
  };

/** GET /.well-known/jwt-vc-issuer */
export const jwtVcIssuerMetadataHandler =
  (deps: Openid4vciDeps): RequestHandler =>
  async (_req, res) => {
    res.set(publicCache(300)).json(jwtVcIssuerMetadata(deps.config.publicUrl, await deps.issuerKeys.jwtPublicKeys()));
  };

/** GET /credential-types/:type, at each type's `vct` URL. */
export const typeMetadataHandler = (deps: Openid4vciDeps) =>
  handle({ params: z.object({ type: z.string().max(100) }) }, async ({ params }, _req, res) => {
    const configuration = CREDENTIAL_CONFIGURATIONS.find((c) => c.type === params.type);
    if (!configuration) {
      res.status(404).json({ error: 'not_found', error_description: 'No such credential type' });
      return;
    }
    res.set(publicCache(3600)).json(typeMetadata(deps.config.publicUrl, configuration));
  });
