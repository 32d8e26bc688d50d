import type { OperationExample } from '@svc/http';

// Every value works against `npm start`'s demo data; docs/wallet-verify.md says where $API_KEY
// comes from. The guide prints these in this order, and a test runs them as printed.
export const WALLET_VERIFY_EXAMPLES: Record<string, OperationExample[]> = {
  'GET /v1/human/verify': [
    {
      summary: 'the demo data’s palm-verified wallet',
      query: { wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7' },
      headers: { 'X-SVC-API-Key': '$API_KEY' },
      status: 200,
      response: { wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7', is_human: true, user_id: '68d275b8-764d-8f25-8bf6-77252eaeb724' },
    },
  ],
};
