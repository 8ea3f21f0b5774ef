import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ResetCodeForm } from '../../features/auth/components/reset-code-form.tsx';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form.tsx';

/** `/reset-password?token=`: the mailed code first, then the new password. */
export function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [verified, setVerified] = useState<{ code: string; email: string } | null>(null);
  const [done, setDone] = useState(false);

  return (
    <Stack>
      <Title order={2}>{t('resetTitle')}</Title>
      {!token ? (
        <Alert color="red" role="alert">
          {t('resetNoToken')}{' '}
          <Anchor component={Link} to="/forgot-password">
            {t('requestNewLink')}
          </Anchor>
        </Alert>
      ) : done ? (
        <>
          <Alert color="teal" role="status">
            {t('resetDone')}
          </Alert>
          <Button component={Link} to="/signin">
            {t('signin')}
          </Button>
        </>
      ) : verified === null ? (
        <>
          <Text size="sm" c="dimmed">
            {t('resetCodeText')}
          </Text>
          <ResetCodeForm token={token} onVerified={(code, email) => setVerified({ code, email })} />
        </>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {t('resetPasswordText')}
          </Text>
          <ResetPasswordForm token={token} code={verified.code} email={verified.email} onDone={() => setDone(true)} />
        </>
      )}
      {!done && (
        <Anchor component={Link} to="/signin" size="sm" ta="center">
          {t('backToSignin')}
        </Anchor>
      )}
    </Stack>
  );
}
