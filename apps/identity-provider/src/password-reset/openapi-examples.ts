import type { OperationExample } from '@svc/http';

// A password reset through the API and the pages, against npm start's demo user: the mailed link is
// read from the local outbox. Last among the examples: it sets the demo password again.
const ALICE = 'alice@demo.example';

export const PASSWORD_RESET_EXAMPLES: Record<string, OperationExample[]> = {
  'POST /auth/password-reset': [
    {
      summary: 'ask for a reset link: the same answer for any address (under npm start the mail goes to the local outbox)',
      body: { email: ALICE },
      status: 202,
      response: { status: 'requested', expires_in: 1800 },
    },
  ],
  'GET /password-reset': [
    {
      summary: 'the page the mailed link opens: a form, nothing changes yet',
      setup: `sleep 1   # the mail goes out just after the answer
export RESET_TOKEN=$(curl -s "http://localhost:4000/dev/outbox.json?to=${ALICE}" | jq -r '.items[0].links[0] | split("token=")[1] | split("&")[0]')`,
      query: { token: '$RESET_TOKEN' },
      status: 200,
      response:
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Choose a new password</title>\n…\n<h1>Choose a new password</h1>\n<p>For the account alice@demo.example.</p>\n<form method="post" action="/password-reset">\n…\n</html>\n',
    },
  ],
  'POST /auth/password-reset/confirm': [
    {
      summary: 'set the new password with the link’s token (here the demo password again), keeping the other sessions',
      body: { token: '$RESET_TOKEN', password: '$PASSWORD', sign_out_everywhere: false },
      status: 200,
      response: { status: 'password_changed', sessions_ended: 0 },
    },
    {
      summary: 'the same link again: it worked once',
      body: { token: '$RESET_TOKEN', password: '$PASSWORD' },
      status: 400,
      response: {
        error: 'invalid_reset_token',
        error_description: 'This password-reset link is unknown, used or expired: ask for a new one (POST /auth/password-reset)',
        request_id: '5e0c7a1d-3b9f-4d2e-8c61-2f4a9b7d0e13',
      },
    },
  ],
  'GET /password-reset/new': [
    {
      summary: 'the request form the sign-in pages link to as “Forgot your password?”',
      query: { lang: 'en' },
      status: 200,
      response:
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Reset your password</title>\n…\n<h1>Reset your password</h1>\n…\n<form method="post" action="/password-reset/new">\n…\n</html>\n',
    },
  ],
  'POST /password-reset/new': [
    {
      summary: 'the request form as a browser posts it (from its own page, with the CSRF cookie and field)',
      headers: { Origin: 'http://localhost:4000', Cookie: 'svc_login_csrf=$CSRF_TOKEN' },
      form: true,
      body: { email: ALICE, csrf_token: '$CSRF_TOKEN', lang: 'en' },
      status: 200,
      response:
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Check your mail</title>\n…\n<p role="status">If alice@demo.example has an account here, a link to choose a new password is on its way. It works once, for 30 minutes.</p>\n…\n</html>\n',
    },
  ],
  'POST /password-reset': [
    {
      summary: 'the new-password form as a browser posts it, with the newest link’s token (the box “Sign me out everywhere else” unticked)',
      setup: `sleep 1   # the mail goes out just after the answer
export RESET_TOKEN=$(curl -s "http://localhost:4000/dev/outbox.json?to=${ALICE}" | jq -r '.items[0].links[0] | split("token=")[1] | split("&")[0]')`,
      headers: { Origin: 'http://localhost:4000', Cookie: 'svc_login_csrf=$CSRF_TOKEN' },
      form: true,
      body: { token: '$RESET_TOKEN', password: '$PASSWORD', password_again: '$PASSWORD', csrf_token: '$CSRF_TOKEN', lang: 'en' },
      status: 200,
      response:
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Password changed</title>\n…\n<p role="status">Your password is changed.</p>\n…\n</html>\n',
    },
  ],
};
