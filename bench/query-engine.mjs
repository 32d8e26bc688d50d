// Evaluations per second of a representative nested policy, with full evidence and without,
// beside json-logic-js evaluating the equivalent logic, all in this run (same process, same data).
//   npm run --silent -w @svc/bench query-engine
import { compileQuery } from '@svc/query-engine';
import jsonLogic from 'json-logic-js';

const claims = { age: 36, nationality: 'DE', kyc_passed: true, net_worth_total: 152340.5, address_full: { country: 'DE' } };
const lookup = (preset) => (preset in claims ? { value: claims[preset], credentialId: 'c1', source: 'kyc', expiresAt: '2027-01-01T00:00:00Z' } : undefined);

const policy = {
  policy: {
    allOf: [
      { claim: 'age', operator: '>=', value: 18 },
      { claim: 'kyc_passed', operator: '==', value: true },
    ],
    anyOf: [
      { claim: 'nationality', operator: 'in', value: ['DE', 'FR', 'IT'] },
      { claim: 'net_worth_total', operator: '>', value: 100000 },
    ],
    not: { claim: 'address_full.country', operator: '==', value: 'US' },
  },
};
const logic = {
  and: [
    { '>=': [{ var: 'age' }, 18] },
    { '===': [{ var: 'kyc_passed' }, true] },
    { or: [{ in: [{ var: 'nationality' }, ['DE', 'FR', 'IT']] }, { '>': [{ var: 'net_worth_total' }, 100000] }] },
    { '!': { '===': [{ var: 'address_full.country' }, 'US'] } },
  ],
};

function measure(name, fn, ms = 2000) {
  for (let i = 0; i < 20_000; i++) fn(); // warm-up
  let n = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 1000; i++) fn();
    n += 1000;
  }
  return { name, perSecond: (n * 1000) / ms };
}

const compiled = compileQuery(policy);
const now = new Date();
if (!compiled.evaluate(lookup, now).passed || !jsonLogic.apply(logic, claims)) throw new Error('the two policies disagree with the expected answer');
const rows = [
  measure('json-logic-js (no evidence)', () => jsonLogic.apply(logic, claims)),
  measure('query-engine, full evidence', () => compiled.evaluate(lookup, now)),
  measure('query-engine, answer only', () => compiled.evaluate(lookup, now, { evidence: false })),
];
const base = rows[0].perSecond;
console.log(`\nnested policy (5 checks, allOf/anyOf/not), evaluations per second (${new Date().toISOString()})`);
for (const r of rows)
  console.log(
    `${r.name.padEnd(32)}${Math.round(r.perSecond).toLocaleString('en').padStart(14)}${`${(r.perSecond / base).toFixed(2)}× json-logic-js`.padStart(24)}`,
  );
