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

  describe('the declared folder order', () => {
    // A scratch app of three layers: tokens/ over the kit, console/ over both.
    const layers = [
      { layer: 'kit', why: 'the ground', rooms: ['errors.ts', 'http'] },
      { layer: 'grant', why: 'tokens', rooms: ['tokens'] },
      { layer: 'console', why: 'pages', rooms: ['console'] },
    ];
    const ordered = (sources: Record<string, string>, order: Record<string, unknown> = { 'apps/a': layers }) => {
      const root = scratch(sources);
      mkdirSync(join(root, 'scripts'));
      writeFileSync(join(root, 'scripts/folder-order.json'), JSON.stringify(order));
      return root;
    };
    const house = {
      'errors.ts': 'export const failed = 1;\n',
      'http/page.ts': `${imp(" { failed } from '../errors.js';")}\nexport const page = failed;\n`,
      'tokens/grant.ts': `${imp(" { page } from '../http/page.js';")}\nexport const grant = page;\n`,
      'console/routes.ts': `${imp(" { grant } from '../tokens/grant.js';")}\n${imp(" { page } from '../http/page.js';")}\nexport const routes = [grant, page];\n`,
    };

    it('passes imports that point within a layer or down', () => {
      const run = check(ordered(house));
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
    });

    it('refuses an import from a lower layer to a higher one, naming its file, line and both layers', () => {
      const run = check(
        ordered({
          ...house,
          'tokens/refresh.ts': `// Refresh rotation.\n${imp(" type { routes } from '../console/routes.js';")}\nexport type Routes = typeof routes;\n`,
        }),
      );
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        "apps/a/src/tokens/refresh.ts:2: imports '../console/routes.js' from src/tokens/ (layer 2 of 3, grant) up to src/console/ (layer 3 of 3, console): imports run down the declared order (scripts/folder-order.json)",
      );
      expect(run.stderr).not.toContain('circle');
    });

    it('refuses a room of src/ that has no place in the order, and a place for a room that is not there', () => {
      const run = check(
        ordered(
          { ...house, 'jobs/housekeeping.ts': 'export const every = 60;\n' },
          { 'apps/a': [...layers, { layer: 'top', why: 'assembly', rooms: ['app.ts'] }] },
        ),
      );
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('apps/a: src/jobs/ has no place in scripts/folder-order.json: add it to a layer of apps/a');
      expect(run.stderr).toContain('apps/a: scripts/folder-order.json places src/app.ts, which apps/a does not have');
    });
  });
});
