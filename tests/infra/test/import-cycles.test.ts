import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { repoRoot } from '@svc/testkit';

// Import statements for the scratch sources, spelled so the dependency check does not read them as imports.
const imp = (rest: string) => `${'im'}port${rest}`;

const check = (root?: string) =>
  spawnSync(process.execPath, [join(repoRoot, 'scripts/check-cycles.mjs'), ...(root ? ['--root', root] : [])], { encoding: 'utf8' });

function scratch(sources: Record<string, string>, app = 'apps/a'): string {
  const root = mkdtempSync(join(tmpdir(), 'cycles-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'scratch', workspaces: ['apps/*'] }));
  for (const [path, text] of Object.entries(sources)) {
    mkdirSync(dirname(join(root, app, 'src', path)), { recursive: true });
    writeFileSync(join(root, app, 'src', path), text);
  }
  return root;
}

// Two capability folders that reach each other, with no two files in a circle: issuance/ imports
// openid4vci/ directly, openid4vci/ reaches issuance/ through a file at the top of src/.
const folderKnot = {
  'issuance/related-resources.ts': `${imp(" { typeMetadata } from '../openid4vci/metadata.js';")}\nexport const own = typeMetadata;\n`,
  'openid4vci/metadata.ts': 'export const typeMetadata = 1;\n',
  'openid4vci/offers.ts': `${imp(" type { Caller } from '../callers.js';")}\nexport type Offer = Caller;\n`,
  'callers.ts': `${imp(" type { Caller } from './issuance/issue-credential.js';")}\nexport type { Caller };\n`,
  'issuance/issue-credential.ts': 'export interface Caller { organizationId: string }\n',
};

describe('the import circle check (CI)', () => {
  it('passes on this repository', () => {
    const run = check();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('reports two files that import each other, even for a type only', () => {
    const run = check(
      scratch({
        'tokens/tokens.ts': `${imp(" type { Grant } from './grant-cache.js';")}\nexport interface Context { grant?: Grant }\n`,
        'tokens/grant-cache.ts': `${imp(" type { Context } from './tokens.js';")}\nexport interface Grant { context?: Context }\n`,
        'app.ts': `${imp(" './tokens/tokens.js';")}\n`,
      }),
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('apps/a: import circle between src/tokens/grant-cache.ts, src/tokens/tokens.ts');
    expect(run.stderr).not.toContain('app.ts');
  });

  it('passes a chain without a way back', () => {
    const run = check(scratch({ 'a.ts': `${imp(" { b } from './b.js';")}\nexport const a = b;\n`, 'b.ts': 'export const b = 1;\n' }));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('reports a circle between the src/ folders of an app that keeps them one way, even through a file at the top', () => {
    const run = check(scratch(folderKnot, 'apps/credential-issuer'));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('apps/credential-issuer: folder circle between src/issuance/, src/openid4vci/');
    expect(run.stderr).toContain('src/openid4vci/offers.ts → src/callers.ts → src/issuance/issue-credential.ts');
    expect(run.stderr).not.toContain('import circle');
  });

  it('holds the identity provider to one-way folders too', () => {
    const run = check(scratch(folderKnot, 'apps/identity-provider'));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('apps/identity-provider: folder circle between src/issuance/, src/openid4vci/');
  });

  it('leaves the folders of an app not on its list alone', () => {
    const run = check(scratch(folderKnot, 'apps/a'));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
