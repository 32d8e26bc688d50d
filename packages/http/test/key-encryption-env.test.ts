import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, keyEncryptionEnv, keyEncryptionSettings, parseEnv } from '../src/index.js';

const schema = z.object({ ...keyEncryptionEnv('IDP_SIGNING_KEY_KEK') });
const load = (environment: Record<string, string>) => keyEncryptionSettings(parseEnv(schema, environment), 'IDP_SIGNING_KEY_KEK');
const strong = () => randomBytes(36).toString('base64');

describe('a service’s own key-encryption key in configuration', () => {
  it('reads the service’s own key and its previous ones', () => {
    const [own, old] = [strong(), strong()];
    expect(load({ IDP_SIGNING_KEY_KEK: own, IDP_SIGNING_KEY_KEK_PREVIOUS: ` ${old} , ` })).toEqual({ current: own, previous: [old] });
  });

  it('reads no shared key: the SIGNING_KEY_KEK both services once shared stands in for neither', () => {
    expect(() => load({ SIGNING_KEY_KEK: strong() })).toThrow(/^Invalid configuration: IDP_SIGNING_KEY_KEK: is required/);
  });

  it('refuses to start without one, naming the service’s own variable', () => {
    expect(() => load({})).toThrow(ConfigError);
    expect(() => load({ IDP_SIGNING_KEY_KEK: '' })).toThrow(/^Invalid configuration: IDP_SIGNING_KEY_KEK: is required/);
  });

  it.each(['IDP_SIGNING_KEY_KEK'])('refuses a placeholder or weak %s, naming it and not echoing it', (name) => {
    expect(() => load({ [name]: 'change-me-to-32-or-more-random-characters' })).toThrow(new RegExp(`${name}: is a placeholder`));
    expect(() => load({ [name]: 'a'.repeat(40) })).toThrow(new RegExp(`${name}: is too predictable.*\\(40 characters given\\)`));
  });
});
