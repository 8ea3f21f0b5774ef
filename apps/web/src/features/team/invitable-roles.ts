import { ZInvitableRole } from '@herald/shared/team/team.schemas';
import type { z } from 'zod';

export type TInvitableRole = z.infer<typeof ZInvitableRole>;
export const INVITABLE_ROLES = ZInvitableRole.options;
