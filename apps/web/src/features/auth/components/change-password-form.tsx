import { ZChangePasswordRequest } from '@herald/shared/auth/auth.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/text-field-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useChangePassword } from '../api/change-password.ts';
import { FormAlert } from '../../../components/form-alert.tsx';

const FIELDS = ['current_password', 'password', 'password_confirmation'] as const;
const EMPTY = { current_password: '', password: '', password_confirmation: '' };

/** Spec section 5's rules; other sessions end and this one continues with the returned token. */
export function ChangePasswordForm() {
  const { t } = useTranslation('profile');
  const change = useChangePassword();
  const [rest, setRest] = useState<string[]>([]);
  const form = useForm({ mode: 'onTouched', resolver: zodResolver(ZChangePasswordRequest), defaultValues: EMPTY });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setRest([]);
    await delay(SUBMIT_DELAY_MS);
    try {
      await change.mutateAsync(values);
      form.reset(EMPTY);
      notifySuccess(t('passwordUpdated'));
    } catch (error) {
      setRest(applyServerErrors(error, form.setError, FIELDS));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack maw={480}>
        <FormAlert messages={rest} />
        <PasswordInput
          label={t('currentPassword')}
          autoComplete="current-password"
          required
          {...form.register('current_password')}
          error={fieldError(errors.current_password)}
        />
        <PasswordInput
          label={t('newPassword')}
          description={t('auth:passwordRules')}
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
        <Group>
          <Button type="submit" loading={isSubmitting}>
            {t('updatePassword')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
