import { z } from 'zod';

export const ZRenameOrganizationRequest = z.object({ name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters') });

export const ZOrganizationView = z.object({ id: z.string(), name: z.string(), ownerId: z.string().nullable(), isOwner: z.boolean() });

export const ZAuthorizationListQuery = z.object({
  status: z.enum(['active', 'revoked']).optional(),
  updated_since: z.string().datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const ZAuthorizationList = z.object({
  items: z.array(
    z.object({
      authorization_id: z.string(),
      organization_id: z.string(),
      app_scoped_user_id: z.string(),
      updated_at: z.string(),
      status: z.enum(['active', 'revoked']),
    }),
  ),
  last_modified: z.string().optional(),
  has_more: z.boolean().optional(),
});

export type OrganizationView = z.infer<typeof ZOrganizationView>;
export type AuthorizationList = z.infer<typeof ZAuthorizationList>;
