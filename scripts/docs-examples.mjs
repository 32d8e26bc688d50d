#!/usr/bin/env node
// Writes each guide's "every endpoint by example" section (docs/<service>.md, between the
// examples markers) from the examples beside the operations in each service's OpenAPI spec.
// `--check` changes nothing and exits 1 when a guide is out of date (the docs test runs the commands).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { examplesMarkdown, PLATFORM_OPERATIONS } from '@svc/http';

const root = fileURLToPath(new URL('..', import.meta.url));
const GUIDES = [
  { service: 'identity-provider', api: 'IDENTITY_PROVIDER_API', baseUrl: 'http://localhost:4000' },
  { service: 'wallet-verify', api: 'WALLET_VERIFY_API', baseUrl: 'http://localhost:4001' },
  { service: 'credential-issuer', api: 'CREDENTIAL_ISSUER_API', baseUrl: 'http://localhost:4002' },
];
const BEGIN =
  '<!-- examples:begin: written by `node scripts/docs-examples.mjs` from the examples beside each operation (src/openapi-examples.ts); edit those -->';
const END = '<!-- examples:end -->';

/** The guide's text with its examples section brought up to date. */
async function updatedGuide({ service, api, baseUrl }) {
  const file = `${root}docs/${service}.md`;
  const text = readFileSync(file, 'utf8');
  const spec = (await import(`${root}apps/${service}/dist/openapi.js`))[api];
  const section = examplesMarkdown([...spec.operations, ...PLATFORM_OPERATIONS], baseUrl);
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
