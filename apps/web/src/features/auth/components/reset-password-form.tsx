import { ZEmail, ZNewPassword, AUTH_MESSAGES } from '@herald/shared/auth/auth.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { fieldError } from '../../../components/text-field-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { FormAlert } from '../../../components/form-alert.tsx';

const ZNewPasswordForm = z
  .object({ email: ZEmail, password: ZNewPassword, password_confirmation: z.string() })
  .refine((v) => v.password === v.password_confirmation, {
    message: AUTH_MESSAGES.passwordsMustMatch,
    path: ['password_confirmation'],
  });
const FIELDS = ['email', 'password', 'password_confirmation'] as const;

/** Reset step two: the account's e-mail (filled in from step one) and the new password. */
export function ResetPasswordForm({
  token,
  code,
  email,
  onDone,
}: {
  token: string;
  code: string;
  email: string;
  onDone: () => void;
}) {
  const { t } = useTranslation('auth');
  const reset = useResetPassword();
  const [rest, setRest] = useState<string[]>([]);
  const form = useForm({
    mode: 'onTouched',
    resolver: zodResolver(ZNewPasswordForm),
    defaultValues: { email, password: '', password_confirmation: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setRest([]);
    await delay(SUBMIT_DELAY_MS);
    try {
      const result = await reset.mutateAsync({ token, code, ...values });
      if (result.is_completed) onDone();
    } catch (error) {
      setRest(applyServerErrors(error, form.setError, FIELDS));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <FormAlert messages={rest} />
        <TextInput
          label={t('email')}
          type="email"
          autoComplete="email"
          required
          {...form.register('email')}
          error={fieldError(errors.email)}
        />
        <PasswordInput
          label={t('newPassword')}
          description={t('passwordRules')}
          autoComplete="new-password"
          required
          {...form.register('password')}
          error={fieldError(errors.password)}
        />
        <PasswordInput
          label={t('confirmPassword')}
          autoComplete="new-password"
          required
          {...form.register('password_confirmation')}
          error={fieldError(errors.password_confirmation)}
        />
        <Button type="submit" loading={isSubmitting} fullWidth>
          {t('setPassword')}
        </Button>
      </Stack>
    </form>
  );
}
