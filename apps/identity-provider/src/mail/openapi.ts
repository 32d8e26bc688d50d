import { errorResponses, type ApiSpec } from '@svc/http';
import { ZOutboxList, ZOutboxQuery } from '@svc/schemas';

/** The local outbox: only on a local deployment that sends no mail. */
export const MAIL_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'get',
    path: '/dev/outbox.json',
    tag: 'Developers',
    summary: 'The mail this deployment kept instead of sending, newest first (local deployments without SMTP_URL only)',
    description:
      'Where SMTP_URL is unset and the deployment is a local one (PUBLIC_URL on a loopback address, as under npm start, or MAIL_OUTBOX=local), mail is kept for a week and shown here and on the page /dev/outbox, links and all, so a sign-up link can be followed without a mailbox. Anywhere mail goes out through SMTP this path does not exist (404).',
    query: ZOutboxQuery,
    responses: {
      200: { description: 'The kept mails (at most 50), with the links in each', schema: ZOutboxList },
      ...errorResponses({ 400: 'Invalid query' }),
    },
  },
];
