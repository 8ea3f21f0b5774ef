import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form.tsx';

export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  return (
    <Stack>
      <Title order={2}>{t('forgotTitle')}</Title>
      <Text size="sm" c="dimmed">
        {t('forgotText')}
      </Text>
      <ForgotPasswordForm />
      <Anchor component={Link} to="/signin" size="sm" ta="center">
        {t('backToSignin')}
      </Anchor>
    </Stack>
  );
}
