import type { TPermission } from '@herald/shared/auth/permissions';
import { Navigate, Outlet } from 'react-router';
import { LoadingState } from '../../components/page-states.tsx';
import { useCurrentUser } from '../../features/auth/api/get-current-user.ts';

/**
 * Routes a role may not use send it to /leads, the one screen every role has (operators are
 * redirected from sources and audiences, spec sections 2 and 6).
 */
export function RequirePermission({ permission, children }: { permission: TPermission; children?: React.ReactNode }) {
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <LoadingState />;
  if (!user?.permissions.includes(permission)) return <Navigate to="/leads" replace />;
  return children ?? <Outlet />;
}
