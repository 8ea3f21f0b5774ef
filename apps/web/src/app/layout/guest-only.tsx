import { Navigate, Outlet, useSearchParams } from 'react-router';
import { useToken } from '../../lib/session.ts';
import { safeRedirect } from './safe-redirect.ts';

/** Sign-in, registration and invitations are for signed-out users; others go on (to `?redirect`). */
export function GuestOnly() {
  const token = useToken();
  const [params] = useSearchParams();
  if (token) return <Navigate to={safeRedirect(params.get('redirect'))} replace />;
  return <Outlet />;
}
