import { z } from 'zod';

export const ZWalletVerification = z.object({
  wallet_address: z.string(),
  is_human: z.boolean(),
  user_id: z.string().uuid(),
});

export const ZAreaBError = z.object({ error: z.string() }).passthrough();

export type WalletVerification = z.infer<typeof ZWalletVerification>;
