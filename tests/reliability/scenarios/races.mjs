// Races over HTTP against the running identity provider, each repeated: exactly one winner, and
// a final state consistent with what every answer claimed.
import { createHash, randomBytes } from 'node:crypto';

const ROUNDS = 15;

function flow(env) {
  const issuer = env.services['identity-provider'].url;
  const user = env.demo.users.palm_verified;
  const client = env.demo.clients.confidential;
  const basic = `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`;
  const post = (path, body, headers) =>
    fetch(`${issuer}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return {
    async session() {
      return (await (await post('/auth/session', { email: user.email, password: user.password })).json()).session_token;
    },
    async pending(session) {
      const verifier = randomBytes(32).toString('base64url');
      const query = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: client.redirect_uri,
        response_type: 'code',
        scope: 'openid identity:read',
        state: 'race',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      });
      const started = await (
        await fetch(`${issuer}/oauth/authorize?${query}`, { headers: { accept: 'application/json', authorization: `Bearer ${session}` } })
      ).json();
      return { id: started.authorization_id, verifier };
    },
    approve: (session, id) => post('/oauth/authorize/approve', { authorization_id: id }, { authorization: `Bearer ${session}` }),
    revokeAuthorization: (session, id) => post('/oauth/revoke', { authorization_id: id }, { authorization: `Bearer ${session}` }),
    exchange: (code, verifier) =>
      post('/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: client.redirect_uri, code_verifier: verifier }, { authorization: basic }),
    refresh: (token) => post('/oauth/token', { grant_type: 'refresh_token', refresh_token: token }, { authorization: basic }),
  };
}

export async function races(env) {
  const f = flow(env);
  const session = await f.session();
  const failures = [];
  const tally = { approveFirst: 0, revokeFirst: 0 };
  const statuses = new Set();

  for (let round = 0; round < ROUNDS; round++) {
    // Approve against revoke: revocation of a pending authorization changes nothing, of an approved one revokes it.
    {
      const { id, verifier } = await f.pending(session);
      const [approved, revoked] = await Promise.all([f.approve(session, id), f.revokeAuthorization(session, id)]);
      const a = await approved.json();
      const r = await revoked.json();
      statuses.add(approved.status).add(revoked.status);
      const revokedIt = r.details?.[0]?.status === 'revoked';
      if (approved.status !== 200) failures.push(`approve/revoke: approve answered ${approved.status}`);
      else {
        const exchanged = await f.exchange(a.code, verifier);
        if (revokedIt && exchanged.status === 200) failures.push('approve/revoke: the revocation said revoked, yet the code was exchanged');
        if (!revokedIt && exchanged.status !== 200) failures.push(`approve/revoke: nothing was revoked, yet the exchange answered ${exchanged.status}`);
      }
      tally[revokedIt ? 'approveFirst' : 'revokeFirst']++;
    }
    // Five parallel exchanges of one code: exactly one succeeds (and, RFC 9700, the other four
    // count as replays: the tokens the winner got are revoked with the authorization).
    {
      const { id, verifier } = await f.pending(session);
      const code = (await (await f.approve(session, id)).json()).code;
      const answers = await Promise.all(Array.from({ length: 5 }, () => f.exchange(code, verifier)));
      const won = answers.filter((a) => a.status === 200);
      for (const a of answers) statuses.add(a.status);
      if (won.length !== 1) failures.push(`parallel exchanges: ${won.length} succeeded`);
    }
    // Five parallel refreshes of one token: exactly one rotation, whose pair every request gets
    // (a retry of the same token by the same client within 10 s is answered, not punished).
    {
      const { id, verifier } = await f.pending(session);
      const code = (await (await f.approve(session, id)).json()).code;
      const refreshToken = (await (await f.exchange(code, verifier)).json()).refresh_token;
      const answers = await Promise.all(Array.from({ length: 5 }, () => f.refresh(refreshToken)));
      for (const a of answers) statuses.add(a.status);
      const pairs = new Set();
      for (const a of answers.filter((x) => x.status === 200)) pairs.add((await a.json()).refresh_token);
      if (pairs.size !== 1) failures.push(`parallel refreshes: ${pairs.size} different rotations`);
      else if ((await f.refresh([...pairs][0])).status !== 200) failures.push('parallel refreshes: the one rotation’s token did not refresh');
    }
  }
  if ([...statuses].some((s) => s >= 500)) failures.push(`a race answered 5xx: ${[...statuses].join(', ')}`);
  return {
    name: `races, ${ROUNDS} rounds each: approve against revoke, 5 parallel code exchanges, 5 parallel refreshes answered by one rotation`,
    failures,
    figures: [
      `approve/revoke outcomes: revocation after approval ${tally.approveFirst}, before it ${tally.revokeFirst}; statuses seen ${[...statuses].sort().join(', ')}`,
    ],
  };
}
