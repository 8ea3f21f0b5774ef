import { createBrowserRouter } from 'react-router';
import { AuthLayout } from './layout/auth-layout.tsx';
import { GuestOnly } from './layout/guest-only.tsx';
import { ProtectedLayout } from './layout/protected-layout.tsx';
import type { RouteHandle } from './route-handle.ts';
import { AnalyticsPage } from './routes/analytics-page.tsx';
import { ForgotPasswordPage } from './routes/forgot-password-page.tsx';
import { HomePage } from './routes/home-page.tsx';
import { InvitePage } from './routes/invite-page.tsx';
import { LegalPage } from './routes/legal-page.tsx';
import { NotFoundPage } from './routes/not-found-page.tsx';
import { ProfileInfoPage } from './routes/profile/profile-info-page.tsx';
import { ProfileLayout } from './routes/profile/profile-layout.tsx';
import { ProfileSecurityPage } from './routes/profile/profile-security-page.tsx';
import { TeamInvitesPage } from './routes/profile/team-invites-page.tsx';
import { TeamLayout } from './routes/profile/team-layout.tsx';
import { TeamMembersPage } from './routes/profile/team-members-page.tsx';
import { RegisterPage } from './routes/register-page.tsx';
import { ResetPasswordPage } from './routes/reset-password-page.tsx';
import { RouteErrorPage } from './routes/route-error-page.tsx';
import { SigninPage } from './routes/signin-page.tsx';
import { VerifyEmailPage } from './routes/verify-email-page.tsx';

const crumb = (key: string): RouteHandle => ({ crumb: key });

export const router = createBrowserRouter([
  {
    errorElement: <RouteErrorPage />,
    children: [
      {
        element: <AuthLayout />,
        children: [
          {
            element: <GuestOnly />,
            children: [
              { path: '/signin', element: <SigninPage /> },
              { path: '/register', element: <RegisterPage /> },
              { path: '/invite/:token', element: <InvitePage /> },
              { path: '/forgot-password', element: <ForgotPasswordPage /> },
            ],
          },
          { path: '/reset-password', element: <ResetPasswordPage /> },
          { path: '/verify-email', element: <VerifyEmailPage /> },
          { path: '/terms', element: <LegalPage kind="terms" /> },
          { path: '/privacy', element: <LegalPage kind="privacy" /> },
        ],
      },
      {
        path: '/',
        element: <ProtectedLayout />,
        handle: crumb('nav.home'),
        children: [
          { index: true, element: <HomePage /> },
          { path: 'analytics', element: <AnalyticsPage />, handle: crumb('nav.analytics') },
          {
            path: 'profile',
            element: <ProfileLayout />,
            handle: crumb('nav.profile'),
            children: [
              { index: true, element: <ProfileInfoPage /> },
              { path: 'security', element: <ProfileSecurityPage />, handle: crumb('profile:nav.security') },
              {
                path: 'team',
                element: <TeamLayout />,
                handle: crumb('profile:nav.team'),
                children: [
                  { index: true, element: <TeamMembersPage /> },
                  { path: 'invites', element: <TeamInvitesPage />, handle: crumb('team:tabs.invites') },
                ],
              },
            ],
          },
          { path: '*', element: <NotFoundPage />, handle: crumb('notFound.title') },
        ],
      },
    ],
  },
]);
