import { z } from 'zod';

// The identity provider's local outbox (/dev/outbox.json): only where mail is kept, not sent.

export const ZOutboxQuery = z.object({ to: z.string().trim().toLowerCase().max(320).optional() });

export const ZKeptMail = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  /** The links in the text, in order. */
  links: z.array(z.string()),
  created_at: z.string(),
});

export const ZOutboxList = z.object({ items: z.array(ZKeptMail) });

export type KeptMail = z.infer<typeof ZKeptMail>;
