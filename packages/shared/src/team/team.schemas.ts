import { z } from 'zod';
import { messageText } from '../common/messages.ts';
import { ZRole } from '../auth/roles.ts';

export const ZTeamMember = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  role: ZRole,
  balance: z.number(),
  balance_auto_refill: z.boolean(),
  blocked: z.boolean(),
});
export type TTeamMember = z.infer<typeof ZTeamMember>;
export const ZTeamList = z.object({ data: z.array(ZTeamMember) });

export const ZBlockRequest = z.object({ blocked: z.boolean() });

/** Roles an invitation can give: the owner is the one who signed up. */
export const ZInvitableRole = z.enum(['team_admin', 'team_operator']);

export const ZInvitation = z.object({
  id: z.number(),
  email: z.string(),
  role: ZInvitableRole,
  created_at: z.string(),
  expires_at: z.string(),
});
export type TInvitation = z.infer<typeof ZInvitation>;
export const ZInvitationList = z.object({ data: z.array(ZInvitation) });

export const ZCreateInvitationRequest = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254)
    .pipe(z.email({ message: messageText('email_invalid') })),
  role: ZInvitableRole,
});
export const ZUpdateInvitationRequest = z.object({ role: ZInvitableRole });
