import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { InviteRegisterForm } from '../../features/auth/components/invite-register-form.tsx';

export function InvitePage() {
  const { t } = useTranslation('auth');
  const { token = '' } = useParams();
  return (
    <Stack>
      <Title order={2}>{t('inviteTitle')}</Title>
      <Text size="sm" c="dimmed">
        {t('inviteText')}
      </Text>
      <InviteRegisterForm token={token} />
    </Stack>
  );
}
