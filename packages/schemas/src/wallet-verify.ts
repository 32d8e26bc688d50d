import { z } from 'zod';
import { checkAddress } from './eip55.js';

export const ZWalletVerifyQuery = z.object({
  wallet_address: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? 'is required: an EIP-55 checksummed address such as 0x52908400098527886E0F7030069857D2E4169EE7'
          : Array.isArray(issue.input)
            ? 'must be given once'
            : 'must be a string',
    })
    .superRefine((value, ctx) => {
      const result = checkAddress(value);
      if (!result.ok) ctx.addIssue({ code: 'custom', message: result.message });
    }),
});

export const ZWalletVerification = z.object({
  wallet_address: z.string(),
  is_human: z.boolean(),
  user_id: z.string().uuid().meta({
    description:
      "The user's UUID as the key's organization knows it: stable for that organization, different for every other (pairwise, like app_scoped_user_id), never the user's own id. The organization's confidential clients may pass it as user_id to /oauth/client/user-token.",
  }),
});

export const ZAreaBError = z.object({ error: z.string() }).passthrough();

export type WalletVerification = z.infer<typeof ZWalletVerification>;
