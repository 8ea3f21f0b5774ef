import { AUTH_MESSAGES, ZEmail } from '@herald/shared/auth/auth.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { fieldError } from '../../../components/text-field-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { useSignin } from '../api/signin.ts';

const ZSigninForm = z.object({
  email: ZEmail,
  password: z.string().min(1, AUTH_MESSAGES.passwordRequired).max(200),
});

/** On success the session starts; the guest-only route then moves on to where the user was going. */
export function SigninForm() {
  const { t } = useTranslation('auth');
  const signin = useSignin();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({
    mode: 'onTouched',
    resolver: zodResolver(ZSigninForm),
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    await delay(SUBMIT_DELAY_MS);
    try {
      await signin.mutateAsync(values);
    } catch (error) {
      setFailure(describeApiError(error));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <TextInput
          label={t('email')}
          type="email"
          autoComplete="email"
          required
          {...form.register('email')}
          error={fieldError(errors.email)}
        />
        <PasswordInput
          label={t('password')}
          autoComplete="current-password"
          required
          {...form.register('password')}
          error={fieldError(errors.password)}
        />
        <Group justify="flex-end">
          <Anchor component={Link} to="/forgot-password" size="sm">
            {t('forgotPassword')}
          </Anchor>
        </Group>
        <Button type="submit" loading={isSubmitting} fullWidth>
          {t('signin')}
        </Button>
      </Stack>
    </form>
  );
}
