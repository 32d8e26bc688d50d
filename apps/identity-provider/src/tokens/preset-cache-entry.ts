import type { Cache } from '@svc/kv';

/**
 * An authorization's entry in the preset cache (data-access/preset-cache.ts). Revoking a grant here
 * in tokens/ drops the entry, and data-access/ builds on tokens/: the key is named below both.
 */
export const presetCacheKey = (authorizationId: string) => `presets:${authorizationId}`;

/** Drops an authorization's entry (on revocation): its data should not outlive the consent. */
export async function forgetPresetData(cache: Cache, authorizationId: string): Promise<void> {
  await cache.delete(presetCacheKey(authorizationId)).catch(() => undefined);
}
