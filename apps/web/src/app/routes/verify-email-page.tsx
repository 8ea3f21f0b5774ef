import { Alert, Button, Center, Loader, Stack, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useVerifyEmail } from '../../features/auth/api/verify-email.ts';
import { isApiError } from '../../lib/api-error.ts';
import { describeApiError, firstFieldMessages } from '../../lib/describe-api-error.ts';

const CONTINUE_AFTER_MS = 2500;

/** The link of the verification mail: verifies once, says so, then continues to the app. */
export function VerifyEmailPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useVerifyEmail();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current || !token) return;
    started.current = true;
    verify.mutate({ token });
  }, [token, verify]);

  useEffect(() => {
    if (!verify.isSuccess) return;
    const timer = setTimeout(() => navigate('/', { replace: true }), CONTINUE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [verify.isSuccess, navigate]);

  return (
    <Stack>
      <Title order={2}>{t('verifyTitle')}</Title>
      {!token ? (
        <Alert color="red" role="alert">
          {t('verifyNoToken')}
        </Alert>
      ) : verify.isError ? (
        <Alert color="red" role="alert">
          {(isApiError(verify.error) && firstFieldMessages(verify.error.errors)[0]) || describeApiError(verify.error)}
        </Alert>
      ) : verify.isSuccess ? (
        <Alert color="teal" role="status">
          {t('verified')}
        </Alert>
      ) : (
        <Center py="md">
          <Loader aria-label={t('verifying')} />
        </Center>
      )}
      <Button component={Link} to="/" variant={verify.isSuccess ? 'filled' : 'default'} replace>
        {t('continue')}
      </Button>
    </Stack>
  );
}
