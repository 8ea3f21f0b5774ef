import { createBrowserRouter, Navigate } from 'react-router';
import { AuthLayout } from './layout/auth-layout.tsx';
import { GuestOnly } from './layout/guest-only.tsx';
import { ProtectedLayout } from './layout/protected-layout.tsx';
import type { RouteHandle } from './route-handle.ts';
import {
  ImportFileCrumb,
  LeadCrumb,
  ListCrumb,
  AudienceCrumb,
  SourceCrumb,
  SubSegmentCrumb,
} from './layout/dynamic-crumbs.tsx';
import { RequirePermission } from './layout/require-permission.tsx';
import { AnalyticsPage } from './routes/analytics-page.tsx';
import { AudiencesPage } from './routes/audiences/audiences-page.tsx';
import { SegmentChildrenPage } from './routes/audiences/segment-children-page.tsx';
import { SegmentLeadsPage } from './routes/audiences/segment-leads-page.tsx';
import { LeadDetailPage } from './routes/leads/lead-detail-page.tsx';
import { LeadsPage } from './routes/leads/leads-page.tsx';
import { IgnorePhoneFormatPage } from './routes/settings/ignore-phone-format-page.tsx';
import { ImportFilePage } from './routes/settings/import-file-page.tsx';
import { ImportHistoryPage } from './routes/settings/import-history-page.tsx';
import { SettingsLayout } from './routes/settings/settings-layout.tsx';
import { SystemAttributesPage } from './routes/settings/system-attributes-page.tsx';
import { ListPage } from './routes/sources/list-page.tsx';
import { SourcePage } from './routes/sources/source-page.tsx';
import { SourcesPage } from './routes/sources/sources-page.tsx';
import { ForgotPasswordPage } from './routes/forgot-password-page.tsx';
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
        children: [
          {
            // Operators have no audiences: they go to /leads (spec section 2).
            index: true,
            element: (
              <RequirePermission permission="segments:read">
                <AudiencesPage />
              </RequirePermission>
            ),
            handle: crumb('nav.audiences'),
          },
          {
            path: 'audiences',
            element: <RequirePermission permission="segments:read" />,
            handle: { crumb: 'nav.audiences', crumbPath: '/' },
            children: [
              { index: true, element: <Navigate to="/" replace /> },
              {
                path: ':segmentId',
                handle: { Crumb: AudienceCrumb },
                children: [
                  { index: true, element: <Navigate to="leads" replace /> },
                  {
                    path: 'leads',
                    children: [
                      { index: true, element: <SegmentLeadsPage /> },
                      { path: ':leadId', element: <LeadDetailPage />, handle: { Crumb: LeadCrumb } },
                    ],
                  },
                  {
                    path: 'segments',
                    handle: crumb('segments:segments'),
                    children: [
                      { index: true, element: <SegmentChildrenPage /> },
                      {
                        path: ':subId',
                        handle: { Crumb: SubSegmentCrumb },
                        children: [
                          { index: true, element: <Navigate to="leads" replace /> },
                          {
                            path: 'leads',
                            children: [
                              { index: true, element: <SegmentLeadsPage /> },
                              { path: ':leadId', element: <LeadDetailPage />, handle: { Crumb: LeadCrumb } },
                            ],
                          },
                        ],
                      },
                    ],
                  },
                ],
              },
            ],
          },
          {
            path: 'analytics',
            element: (
              <RequirePermission permission="dashboard:read">
                <AnalyticsPage />
              </RequirePermission>
            ),
            handle: crumb('nav.analytics'),
          },
          {
            path: 'leads',
            handle: crumb('nav.leads'),
            children: [
              { index: true, element: <LeadsPage /> },
              { path: ':leadId', element: <LeadDetailPage />, handle: { Crumb: LeadCrumb } },
            ],
          },
          {
            path: 'sources',
            element: <RequirePermission permission="sources:manage" />,
            handle: crumb('nav.sources'),
            children: [
              { index: true, element: <SourcesPage /> },
              {
                path: ':sourceId',
                handle: { Crumb: SourceCrumb },
                children: [
                  { index: true, element: <SourcePage /> },
                  {
                    path: ':listId',
                    handle: { Crumb: ListCrumb },
                    children: [
                      { index: true, element: <ListPage /> },
                      { path: ':leadId', element: <LeadDetailPage />, handle: { Crumb: LeadCrumb } },
                    ],
                  },
                ],
              },
            ],
          },
          {
            path: 'settings',
            element: (
              <RequirePermission permission="settings:manage">
                <SettingsLayout />
              </RequirePermission>
            ),
            handle: crumb('nav.settings'),
            children: [
              { index: true, element: <Navigate to="/settings/system-attributes" replace /> },
              {
                path: 'system-attributes',
                element: <SystemAttributesPage />,
                handle: crumb('settings:tabs.systemAttributes'),
              },
              {
                path: 'import-history',
                element: <RequirePermission permission="imports:read" />,
                handle: crumb('settings:tabs.importHistory'),
                children: [
                  { index: true, element: <ImportHistoryPage /> },
                  { path: ':fileId', element: <ImportFilePage />, handle: { Crumb: ImportFileCrumb } },
                ],
              },
              {
                path: 'ignore-phone-format',
                element: <IgnorePhoneFormatPage />,
                handle: crumb('settings:tabs.ignorePhoneFormat'),
              },
            ],
          },
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
