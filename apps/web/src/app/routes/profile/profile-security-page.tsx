import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ChangePasswordForm } from '../../../features/auth/components/change-password-form.tsx';

export function ProfileSecurityPage() {
  const { t } = useTranslation('profile');
  return (
    <Stack>
      <Title order={3}>{t('changePassword')}</Title>
      <ChangePasswordForm />
    </Stack>
  );
}
