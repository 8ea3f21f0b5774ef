import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { ErrorState } from '../../components/page-states.tsx';
import { currentUserQueryOptions } from '../../features/auth/api/get-current-user.ts';
import { AccessDenied } from '../../features/auth/components/access-denied.tsx';
import { LiveEventsProvider } from '../../lib/live-events.tsx';
import { signOutReason, useAccessDenied, useToken } from '../../lib/session.ts';
import { AppShellLayout } from './app-shell-layout.tsx';

/**
 * Guards every signed-in route: no token → /signin (keeping where the user was, unless they
 * logged out); a 403 or an unverified account → "You're not activated yet."; otherwise the shell.
 */
export function ProtectedLayout() {
  const { t } = useTranslation();
  const token = useToken();
  const denied = useAccessDenied();
  const location = useLocation();
  const user = useQuery({ ...currentUserQueryOptions(), enabled: Boolean(token) && !denied });

  if (!token) {
    const here = location.pathname + location.search;
    const keep = signOutReason.current !== 'logout' && here !== '/';
    return <Navigate to={keep ? `/signin?redirect=${encodeURIComponent(here)}` : '/signin'} replace />;
  }
  if (denied) return <AccessDenied />;
  if (user.isPending) {
    return (
      <Center mih="100vh">
        <Loader aria-label={t('loading')} />
      </Center>
    );
  }
  if (user.isError) {
    return (
      <Center mih="100vh" p="md">
        <ErrorState error={user.error} onRetry={() => user.refetch()} />
      </Center>
    );
  }
  return (
    <LiveEventsProvider token={token}>
      <AppShellLayout />
    </LiveEventsProvider>
  );
}
