import { createBrowserRouter, Navigate } from 'react-router';
import { AuthLayout } from './layout/auth-layout.tsx';
import { GuestOnly } from './layout/guest-only.tsx';
import { ProtectedLayout } from './layout/protected-layout.tsx';
import type { RouteHandle } from './route-handle.ts';
import { lazyPage } from './lazy-page.ts';
import {
  ImportFileCrumb,
  LeadCrumb,
  ListCrumb,
  AudienceCrumb,
  SourceCrumb,
  SubSegmentCrumb,
} from './layout/dynamic-crumbs.tsx';
import { RequirePermission } from './layout/require-permission.tsx';
import { CampaignCrumb } from './routes/campaigns/campaign-crumb.tsx';
import { NotFoundPage } from './routes/not-found-page.tsx';
import { RouteErrorPage } from './routes/route-error-page.tsx';
import { SigninPage } from './routes/signin-page.tsx';

const AnalyticsPage = lazyPage(() => import('./routes/analytics-page.tsx'), 'AnalyticsPage');
const AudiencesPage = lazyPage(() => import('./routes/audiences/audiences-page.tsx'), 'AudiencesPage');
const SegmentChildrenPage = lazyPage(
  () => import('./routes/audiences/segment-children-page.tsx'),
  'SegmentChildrenPage',
);
const SegmentLeadsPage = lazyPage(() => import('./routes/audiences/segment-leads-page.tsx'), 'SegmentLeadsPage');
const LeadDetailPage = lazyPage(() => import('./routes/leads/lead-detail-page.tsx'), 'LeadDetailPage');
const LeadsPage = lazyPage(() => import('./routes/leads/leads-page.tsx'), 'LeadsPage');
const IgnorePhoneFormatPage = lazyPage(
  () => import('./routes/settings/ignore-phone-format-page.tsx'),
  'IgnorePhoneFormatPage',
);
const ImportFilePage = lazyPage(() => import('./routes/settings/import-file-page.tsx'), 'ImportFilePage');
const ImportHistoryPage = lazyPage(() => import('./routes/settings/import-history-page.tsx'), 'ImportHistoryPage');
const SmsGatewaysPage = lazyPage(() => import('./routes/settings/sms-gateways-page.tsx'), 'SmsGatewaysPage');
const SettingsLayout = lazyPage(() => import('./routes/settings/settings-layout.tsx'), 'SettingsLayout');
const SystemAttributesPage = lazyPage(
  () => import('./routes/settings/system-attributes-page.tsx'),
  'SystemAttributesPage',
);
const ListPage = lazyPage(() => import('./routes/sources/list-page.tsx'), 'ListPage');
const SourcePage = lazyPage(() => import('./routes/sources/source-page.tsx'), 'SourcePage');
const SourcesPage = lazyPage(() => import('./routes/sources/sources-page.tsx'), 'SourcesPage');
const CampaignsPage = lazyPage(() => import('./routes/campaigns/campaigns-page.tsx'), 'CampaignsPage');
const CampaignPage = lazyPage(() => import('./routes/campaigns/campaign-page.tsx'), 'CampaignPage');
const CampaignLogsPage = lazyPage(() => import('./routes/campaigns/campaign-logs-page.tsx'), 'CampaignLogsPage');
const CampaignStatisticsPage = lazyPage(
  () => import('./routes/campaigns/campaign-statistics-page.tsx'),
  'CampaignStatisticsPage',
);
const CampaignAudiencePage = lazyPage(
  () => import('./routes/campaigns/campaign-audience-page.tsx'),
  'CampaignAudiencePage',
);
const ForgotPasswordPage = lazyPage(() => import('./routes/forgot-password-page.tsx'), 'ForgotPasswordPage');
const InvitePage = lazyPage(() => import('./routes/invite-page.tsx'), 'InvitePage');
const LegalPage = lazyPage(() => import('./routes/legal-page.tsx'), 'LegalPage');
const ProfileInfoPage = lazyPage(() => import('./routes/profile/profile-info-page.tsx'), 'ProfileInfoPage');
const ProfileLayout = lazyPage(() => import('./routes/profile/profile-layout.tsx'), 'ProfileLayout');
const ProfileSubscriptionsPage = lazyPage(
  () => import('./routes/profile/profile-subscriptions-page.tsx'),
  'ProfileSubscriptionsPage',
);
const OldProfilePage = lazyPage(() => import('./routes/profile/old-profile-page.tsx'), 'OldProfilePage');
const ProfileTransactionsPage = lazyPage(
  () => import('./routes/profile/profile-transactions-page.tsx'),
  'ProfileTransactionsPage',
);
const ProfileSecurityPage = lazyPage(() => import('./routes/profile/profile-security-page.tsx'), 'ProfileSecurityPage');
const TeamInvitesPage = lazyPage(() => import('./routes/profile/team-invites-page.tsx'), 'TeamInvitesPage');
const TeamLayout = lazyPage(() => import('./routes/profile/team-layout.tsx'), 'TeamLayout');
const TeamMembersPage = lazyPage(() => import('./routes/profile/team-members-page.tsx'), 'TeamMembersPage');
const RegisterPage = lazyPage(() => import('./routes/register-page.tsx'), 'RegisterPage');
const ResetPasswordPage = lazyPage(() => import('./routes/reset-password-page.tsx'), 'ResetPasswordPage');
const SmsTemplatesPage = lazyPage(() => import('./routes/templates/sms-templates-page.tsx'), 'SmsTemplatesPage');
const AlphaNamesPage = lazyPage(() => import('./routes/alpha-names/alpha-names-page.tsx'), 'AlphaNamesPage');
const AlphaNamesSettingsTab = lazyPage(
  () => import('./routes/alpha-names/alpha-names-page.tsx'),
  'AlphaNamesSettingsTab',
);
const AdminAlphaNamesPage = lazyPage(
  () => import('./routes/alpha-names/admin-alpha-names-page.tsx'),
  'AdminAlphaNamesPage',
);
const ShortUrlDomainsTab = lazyPage(() => import('./routes/settings/short-url-domains-tab.tsx'), 'ShortUrlDomainsTab');
const LookupManagementPage = lazyPage(
  () => import('./routes/lookups/lookup-management-page.tsx'),
  'LookupManagementPage',
);
const VerifyEmailPage = lazyPage(() => import('./routes/verify-email-page.tsx'), 'VerifyEmailPage');

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
            path: 'campaigns',
            element: <RequirePermission permission="campaigns:read" />,
            handle: crumb('nav.campaigns'),
            children: [
              { index: true, element: <CampaignsPage /> },
              { path: ':campaignId', element: <CampaignPage /> },
              { path: ':campaignId/logs', element: <CampaignLogsPage /> },
              { path: ':campaignId/statistics', element: <CampaignStatisticsPage /> },
              {
                path: ':campaignId/audience',
                handle: { Crumb: CampaignCrumb },
                children: [
                  { index: true, element: <CampaignAudiencePage /> },
                  { path: ':leadId', element: <LeadDetailPage />, handle: { Crumb: LeadCrumb } },
                ],
              },
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
              { index: true, element: <SmsGatewaysPage /> },
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
              {
                path: 'alpha-names',
                element: <AlphaNamesSettingsTab />,
                handle: crumb('settings:tabs.alphaNames'),
              },
              {
                path: 'short-url-domains',
                element: <ShortUrlDomainsTab />,
                handle: crumb('settings:tabs.shortUrlDomains'),
              },
            ],
          },
          {
            path: 'lookup-management',
            element: (
              <RequirePermission permission="lookups:read">
                <LookupManagementPage />
              </RequirePermission>
            ),
            handle: crumb('nav.lookups'),
          },
          {
            path: 'sms-templates',
            element: (
              <RequirePermission permission="templates:manage">
                <SmsTemplatesPage />
              </RequirePermission>
            ),
            handle: crumb('nav.templates'),
          },
          {
            path: 'alpha-names',
            element: (
              <RequirePermission permission="alpha-names:manage">
                <AlphaNamesPage />
              </RequirePermission>
            ),
            handle: crumb('nav.alphaNames'),
          },
          { path: 'admin/alpha-names', element: <AdminAlphaNamesPage />, handle: crumb('alpha-names:admin.title') },
          {
            path: 'profile',
            element: <ProfileLayout />,
            handle: crumb('nav.profile'),
            children: [
              { index: true, element: <ProfileInfoPage /> },
              { path: 'security', element: <ProfileSecurityPage />, handle: crumb('profile:nav.security') },
              {
                path: 'subscriptions',
                element: (
                  <RequirePermission permission="plans:read">
                    <ProfileSubscriptionsPage />
                  </RequirePermission>
                ),
                handle: crumb('billing:nav.subscriptions'),
              },
              {
                path: 'transactions',
                element: <ProfileTransactionsPage />,
                handle: crumb('billing:nav.transactions'),
              },
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
          { path: 'old-profile', element: <OldProfilePage />, handle: crumb('billing:oldProfile.title') },
          { path: '*', element: <NotFoundPage />, handle: crumb('notFound.title') },
        ],
      },
    ],
  },
]);
