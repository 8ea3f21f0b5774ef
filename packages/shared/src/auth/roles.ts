import { z } from 'zod';

export const ROLES = ['team_owner', 'team_admin', 'team_operator'] as const;
export const ZRole = z.enum(ROLES);
export type TRole = z.infer<typeof ZRole>;
