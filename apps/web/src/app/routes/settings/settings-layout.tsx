import { Paper, Stack, Tabs, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { RouteOutlet } from '../../layout/route-suspense.tsx';

/**
 * `/settings/*`: the spec's six tabs. SMS gateways is the root, `/settings` itself.
 */
const TABS = [
  { path: '/settings', label: 'tabs.smsGateways' },
  { path: '/settings/system-attributes', label: 'tabs.systemAttributes' },
  { path: '/settings/import-history', label: 'tabs.importHistory' },
  { path: '/settings/ignore-phone-format', label: 'tabs.ignorePhoneFormat' },
  { path: '/settings/short-url-domains', label: 'tabs.shortUrlDomains' },
  { path: '/settings/alpha-names', label: 'tabs.alphaNames' },
] as const;

export function SettingsLayout() {
  const { t } = useTranslation('settings');
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <Stack>
      <Title order={2}>{t('title')}</Title>
      <Tabs
        value={
          TABS.find((tab) =>
            tab.path === '/settings' ? pathname.replace(/\/$/, '') === tab.path : pathname.startsWith(tab.path),
          )?.path ?? null
        }
        onChange={(v) => v && navigate(v)}
      >
        <Tabs.List>
          {TABS.map((tab) => (
            <Tabs.Tab key={tab.path} value={tab.path}>
              {t(tab.label)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Paper withBorder radius="md" p="md">
        <RouteOutlet />
      </Paper>
    </Stack>
  );
}
