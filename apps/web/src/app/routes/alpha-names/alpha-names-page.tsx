import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { useAdminAccess } from '../../../features/alpha-names/api/get-admin-access.ts';
import { AlphaNamesPanel } from '../../../features/alpha-names/components/alpha-names-panel.tsx';

/** `/alpha-names`: the team's sender names (the settings tab shows the same panel). */
export function AlphaNamesPage() {
  const { t } = useTranslation('alpha-names');
  const canManage = usePermission('alpha-names:manage');
  const admin = useAdminAccess();
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('title')}</Title>
        {admin.data?.admin && (
          <Button
            component={Link}
            to="/admin/alpha-names"
            variant="light"
            leftSection={<IconShieldCheck size={16} aria-hidden />}
          >
            {t('admin.title')}
          </Button>
        )}
      </Group>
      <Paper withBorder radius="md" p="md">
        <AlphaNamesPanel canManage={canManage} />
      </Paper>
    </Stack>
  );
}

/** `/settings/alpha-names`. */
export function AlphaNamesSettingsTab() {
  const canManage = usePermission('alpha-names:manage');
  return <AlphaNamesPanel canManage={canManage} />;
}
