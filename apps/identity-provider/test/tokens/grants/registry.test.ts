import { describe, expect, it } from '@jest/globals';
import { GRANT_TYPES, ZTokenRequest } from '@svc/schemas';
import { openidConfiguration } from '../../../src/discovery/discovery.js';
import { TOKEN_GRANTS, tokenGrant } from '../../../src/tokens/grants/registry.js';

// The names live in packages/schemas (which packages read and cannot import an app); the modules
// here. Neither may name a grant the other lacks.
describe('the grant registry', () => {
  it('has one module for each grant type packages/schemas names, and none besides', () => {
    expect(Object.keys(TOKEN_GRANTS).sort()).toEqual([...GRANT_TYPES].sort());
    for (const name of GRANT_TYPES) expect(TOKEN_GRANTS[name].grantType).toBe(name);
  });

  it('validates each grant with its own member of the published token request', () => {
    for (const option of ZTokenRequest.options) expect(TOKEN_GRANTS[option.shape.grant_type.value].schema).toBe(option);
  });

  it('finds no module for another grant type, or for a name every object has', () => {
    for (const name of ['password', 'implicit', 'toString', '__proto__', 42, undefined]) expect(tokenGrant(name)).toBeUndefined();
  });

  it('is what discovery announces as grant_types_supported', () => {
    expect(openidConfiguration('https://id.example.com', 'production').grant_types_supported).toEqual([...GRANT_TYPES]);
    expect([...GRANT_TYPES]).toEqual(Object.values(TOKEN_GRANTS).map((grant) => grant.grantType));
  });
});
