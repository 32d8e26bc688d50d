import type { OperationExample } from '@svc/http';

export const ACCOUNT_EXAMPLES: Record<string, OperationExample[]> = {
  'GET /account': [
    {
      summary: 'the account page without a session: a sign-in with a passkey or the password',
      status: 200,
      response:
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Your account</title>\n…\n<h1>Sign in to manage your account</h1>\n…\n</html>\n',
    },
  ],
  'POST /account/sign-in': [
    {
      summary: 'its password form as a browser posts it (from its own page; the CSRF cookie and field must match)',
      headers: { Origin: 'http://localhost:4000', Cookie: 'svc_login_csrf=$CSRF_TOKEN' },
      form: true,
      body: { email: 'alice@demo.example', password: '$PASSWORD', csrf_token: '$CSRF_TOKEN' },
      status: 303,
    },
  ],
};
