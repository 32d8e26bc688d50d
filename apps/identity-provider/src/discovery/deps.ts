import type { Config } from '../config.js';
import type { SigningKeys } from '../keys/signing-keys.js';

/** What the metadata documents and the published keys need from the app. */
export interface DiscoveryDeps {
  config: Config;
  signingKeys: SigningKeys;
}
