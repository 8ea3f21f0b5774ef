import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { SigninForm } from '../../features/auth/components/signin-form.tsx';

export function SigninPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  return (
    <Stack>
      <Title order={2}>{t('signinTitle')}</Title>
      <SigninForm />
      <Text size="sm" ta="center">
        {t('noAccount')}{' '}
        <Anchor component={Link} to={redirect ? `/register?redirect=${encodeURIComponent(redirect)}` : '/register'}>
          {t('register')}
        </Anchor>
      </Text>
    </Stack>
  );
}
