// The real flow infra/smoke.sh runs against the containers, as an integrator would: the demo
// user signs in and consents, the confidential client exchanges the code (PKCE), reads user info
// and a preset; wallet verify with its rate-limit headers; a credential issued and verified.
// Reads the seed:demo result on stdin; prints one line per step and exits non-zero on the first
// failure. Usage: node infra/smoke/flow.mjs IDP_URL WALLET_URL ISSUER_URL < demo.json
import { authorizeThroughApi } from '@svc/testkit/oauth-flow';

const [idp, wallet, issuer] = process.argv.slice(2);
const demo = JSON.parse(await new Promise((resolve) => {
  let text = '';
  process.stdin.on('data', (d) => (text += d)).on('end', () => resolve(text));
}));

function step(what, ok, detail) {
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? `: ${detail}` : ''}\n`);
  if (!ok) process.exit(1);
}

async function json(res) {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const user = demo.users.palm_verified;
const client = demo.clients.confidential;
const [tokens] = await authorizeThroughApi(
  idp,
  { email: user.email, password: user.password },
  { clientId: client.client_id, clientSecret: client.client_secret, redirectUri: client.redirect_uri },
  'openid identity:read kyc:read',
);
step('sign-in, consent and code exchange (PKCE S256, client_secret_basic)', typeof tokens.access_token === 'string', `token_type ${tokens.token_type}, expires_in ${tokens.expires_in}`);

const bearer = { authorization: `Bearer ${tokens.access_token}` };
const userinfo = await fetch(`${idp}/v2/userinfo`, { headers: bearer });
step('GET /v2/userinfo', userinfo.status === 200, `${userinfo.status}`);
const preset = await fetch(`${idp}/v2/presets/age_over_18`, { headers: bearer });
const presetBody = await json(preset);
step('GET /v2/presets/age_over_18', preset.status === 200, `${preset.status} ${JSON.stringify(presetBody)}`);

const address = user.wallets[0];
const verify = await fetch(`${wallet}/v1/human/verify?wallet_address=${address}`, { headers: { 'x-svc-api-key': demo.api_keys.wallet_verify.key } });
const verdict = await json(verify);
const limit = verify.headers.get('x-ratelimit-limit');
const remaining = verify.headers.get('x-ratelimit-remaining');
step('GET /v1/human/verify', verify.status === 200 && verdict.is_human === true && limit !== null && remaining !== null, `${verify.status} is_human=${verdict.is_human} X-RateLimit-Limit ${limit} -Remaining ${remaining}`);

const headers = { 'content-type': 'application/json', 'x-api-token': demo.api_keys.credential_issuer.key };
const issued = await fetch(`${issuer}/credentials/issue`, { method: 'POST', headers, body: JSON.stringify({ subject_address: address, claims: { kyc_passed: true } }) });
const { credential } = await json(issued);
step('POST /credentials/issue', issued.status === 200 && credential?.proof?.cryptosuite === 'bbs-2023', `${issued.status} ${credential?.proof?.cryptosuite}`);
const checked = await fetch(`${issuer}/credentials/verify`, { method: 'POST', headers, body: JSON.stringify({ credential }) });
const checkedBody = await json(checked);
step('POST /credentials/verify', checked.status === 200 && checkedBody.verified === true, `${checked.status} verified=${checkedBody.verified}`);
