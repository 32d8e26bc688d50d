#!/usr/bin/env node
// Writes each guide's "every endpoint by example" section (docs/<service>.md, between the
// examples markers) from the examples beside the operations in each service's OpenAPI spec, in the
// order of its src/openapi-examples.ts (a reader runs the page top to bottom: what spends or ends
// something comes after what needs it), then the platform endpoints.
// `--check` changes nothing and exits 1 when a guide is out of date (the docs test runs the commands).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { examplesMarkdown, PLATFORM_OPERATIONS } from '@svc/http';

const root = fileURLToPath(new URL('..', import.meta.url));
// The identity provider has two guides, one per environment (production's and the sandbox's), each
// with its own examples (src/openapi.ts guideOperations); the sandbox's shows no platform endpoints.
const GUIDES = [
  { guide: 'identity-provider', app: 'identity-provider', examples: 'IDENTITY_PROVIDER_EXAMPLES', baseUrl: 'http://localhost:4000', platform: true },
  { guide: 'sandbox', app: 'identity-provider', examples: 'SANDBOX_EXAMPLES', baseUrl: 'http://localhost:4005', platform: false },
  {
    guide: 'wallet-verify',
    app: 'wallet-verify',
    api: 'WALLET_VERIFY_API',
    examples: 'WALLET_VERIFY_EXAMPLES',
    baseUrl: 'http://localhost:4001',
    platform: true,
  },
  {
    guide: 'credential-issuer',
    app: 'credential-issuer',
    api: 'CREDENTIAL_ISSUER_API',
    examples: 'CREDENTIAL_ISSUER_EXAMPLES',
    baseUrl: 'http://localhost:4002',
    platform: true,
  },
];
const BEGIN =
  '<!-- examples:begin: written by `node scripts/docs-examples.mjs` from the examples beside each operation (src/openapi-examples.ts); edit those -->';
const END = '<!-- examples:end -->';

/** The guide's text with its examples section brought up to date. */
async function updatedGuide({ guide, app, api, examples, baseUrl, platform }) {
  const file = `${root}docs/${guide}.md`;
  const text = readFileSync(file, 'utf8');
  const specs = await import(`${root}apps/${app}/dist/openapi.js`);
  const operations = api ? specs[api].operations : specs.guideOperations(guide);
  const order = Object.keys(api ? (await import(`${root}apps/${app}/dist/openapi-examples.js`))[examples] : specs.GUIDE_EXAMPLES[guide]);
  const section = examplesMarkdown([...operations, ...(platform ? PLATFORM_OPERATIONS : [])], baseUrl, order);
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${file} lacks the examples markers`);
  return { file, text, updated: `${text.slice(0, start + BEGIN.length)}\n\n${section}\n\n${text.slice(end)}` };
}

const check = process.argv.includes('--check');
let stale = 0;
for (const guide of GUIDES) {
  const { file, text, updated } = await updatedGuide(guide);
  if (text === updated) continue;
  stale++;
  if (check) process.stderr.write(`${file} is out of date: run node scripts/docs-examples.mjs\n`);
  else writeFileSync(file, updated);
}
process.exit(check && stale ? 1 : 0);
