import type { TPermission } from '@herald/shared/auth/permissions';
import { useCurrentUser } from '../api/get-current-user.ts';

/**
 * Whether the signed-in user's role may do `permission`, from `permissions` of `GET /user`.
 * False while the user is loading, so nothing a role cannot use flashes on screen.
 */
export function usePermission(permission: TPermission): boolean {
  const { data } = useCurrentUser();
  return data?.permissions.includes(permission) ?? false;
}
