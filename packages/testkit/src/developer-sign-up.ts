// A developer signs up as a person would, against a running identity provider whose mail goes to
// its local outbox (no SMTP_URL, a local PUBLIC_URL): sign up, read the link from /dev/outbox.json,
// and follow it with the password.

export interface SignedUp {
  user_id: string;
  organization_id: string;
}

async function json(res: Response, what: string): Promise<Record<string, unknown>> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Signs up at `baseUrl` and confirms through the outbox: the account and its organization (or membership). */
export async function signUpThroughOutbox(
  baseUrl: string,
  input: { email: string; password: string; organization_name?: string; invitation_token?: string },
): Promise<SignedUp> {
  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await json(await post('/v2/developer/signup', input), 'sign-up');
  const outbox = await json(await fetch(`${baseUrl}/dev/outbox.json?to=${encodeURIComponent(input.email)}`), 'outbox');
  const link = (outbox.items as { links: string[] }[])[0]?.links.find((l) => l.includes('token='));
  if (!link) throw new Error(`no sign-up link was mailed to ${input.email}`);
  const token = new URL(link).searchParams.get('token')!;
  return (await json(await post('/v2/developer/signup/confirm', { token, password: input.password }), 'confirming the sign-up')) as unknown as SignedUp;
}
