import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { LoadingState } from '../../../components/page-states.tsx';
import { useAdminAccess } from '../../../features/alpha-names/api/get-admin-access.ts';
import { ReviewQueue } from '../../../features/alpha-names/components/review-queue.tsx';

/** `/admin/alpha-names`: for the installation's admins only (HERALD_ADMIN_EMAILS); others go to /leads. */
export function AdminAlphaNamesPage() {
  const { t } = useTranslation('alpha-names');
  const access = useAdminAccess();
  if (access.isPending) return <LoadingState rows={3} />;
  if (!access.data?.admin) return <Navigate to="/leads" replace />;
  return (
    <Stack>
      <Title order={2}>{t('admin.title')}</Title>
      <Text size="sm" c="dimmed" maw={640}>
        {t('admin.intro')}
      </Text>
      <Paper withBorder radius="md" p="md">
        <ReviewQueue />
      </Paper>
    </Stack>
  );
}
