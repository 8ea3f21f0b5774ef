import { ZEmail } from '@herald/shared/auth/auth.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { fieldError } from '../../../components/text-field-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { useRequestPasswordReset } from '../api/forgot-password.ts';
import { FormAlert } from '../../../components/form-alert.tsx';

const ZForgotForm = z.object({ email: ZEmail });

/** Mails a reset link and a code; the answer never tells whether the address has an account. */
export function ForgotPasswordForm() {
  const { t } = useTranslation('auth');
  const request = useRequestPasswordReset();
  const [sent, setSent] = useState(false);
  const [rest, setRest] = useState<string[]>([]);
  const form = useForm({ mode: 'onTouched', resolver: zodResolver(ZForgotForm), defaultValues: { email: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setRest([]);
    await delay(SUBMIT_DELAY_MS);
    try {
      await request.mutateAsync(values);
      setSent(true);
    } catch (error) {
      setRest(applyServerErrors(error, form.setError, ['email']));
    }
  });

  if (sent) {
    return (
      <Alert color="teal" role="status">
        {t('resetSent')}
      </Alert>
    );
  }

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
        <Button type="submit" loading={isSubmitting} fullWidth>
          {t('sendResetLink')}
        </Button>
      </Stack>
    </form>
  );
}
