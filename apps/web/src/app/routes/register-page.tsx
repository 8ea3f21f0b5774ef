import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RegisterForm } from '../../features/auth/components/register-form.tsx';

export function RegisterPage() {
  const { t } = useTranslation('auth');
  return (
    <Stack>
      <Title order={2}>{t('registerTitle')}</Title>
      <RegisterForm />
      <Text size="sm" ta="center">
        {t('haveAccount')}{' '}
        <Anchor component={Link} to="/signin">
          {t('signin')}
        </Anchor>
      </Text>
    </Stack>
  );
}
