import { errorResponses, withExamples, type ApiSpec } from '@svc/http';
import { ZAreaBError, ZErrorBody, ZWalletVerification, ZWalletVerifyQuery } from '@svc/schemas';
import { WALLET_VERIFY_EXAMPLES } from './openapi-examples.js';

const LIMIT_HEADERS = {
  'X-RateLimit-Limit': 'Requests this key is allowed per hour: its own limit, held to the platform maximum the operator sets',
  'X-RateLimit-Remaining': 'Requests left in the current hour for this key: the fewer of its own and its organization’s budget',
  'X-RateLimit-Reset': 'Unix time at which the hour ends',
};

/** Wallet verify's API contract, as served. */
export const WALLET_VERIFY_API: ApiSpec = {
  title: 'Wallet verify',
  description:
    'Whether a wallet address belongs to a unique, palm-verified human. Every answer to a request with a known active key carries the X-RateLimit-* headers. Each key has its own hourly and per-second limits (at most the platform maximum), and all of an organization’s keys together are held to the organization’s budget: more keys share it, they do not add to it.',
  operations: withExamples(
    [
      {
        method: 'get',
        path: '/v1/human/verify',
        tag: 'Verify',
        summary: 'Is this wallet a unique, palm-verified human?',
        description: 'wallet_address must be EIP-55 checksummed; the 400 says what is wrong and gives the checksummed form when the address is only mis-cased.',
        security: [['svcApiKey']],
        query: ZWalletVerifyQuery,
        responses: {
          200: { description: 'A registered wallet', schema: ZWalletVerification, headers: LIMIT_HEADERS },
          400: { description: 'Not an EIP-55 address', schema: ZErrorBody, headers: LIMIT_HEADERS },
          401: { description: '"Missing API key", "Invalid / disabled API key", or the same followed by why for a sandbox key (sbx_)', schema: ZAreaBError },
          403: { description: '"Invalid / disabled API key": disabled, or without wallet:verify', schema: ZAreaBError },
          404: { description: '"Wallet not found"', schema: ZAreaBError, headers: LIMIT_HEADERS },
          429: {
            description:
              '"Rate limit exceeded" (Retry-After): over the key’s hourly or per-second limit, or its organization’s budget, which all of its keys share',
            schema: ZAreaBError,
            headers: LIMIT_HEADERS,
          },
          ...errorResponses({ 503: 'Redis unreachable while failing closed (Retry-After)' }),
        },
      },
    ],
    WALLET_VERIFY_EXAMPLES,
  ),
};
