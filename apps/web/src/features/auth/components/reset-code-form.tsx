import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { messageText } from '@herald/shared/common/messages';
import { z } from 'zod';
import { fieldError } from '../../../components/text-field-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { FormAlert } from '../../../components/form-alert.tsx';

const ZCodeForm = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, messageText('reset_code_format')),
});

/** Reset step one: the 6-digit code mailed with the link. */
export function ResetCodeForm({
  token,
  onVerified,
}: {
  token: string;
  onVerified: (code: string, email: string) => void;
}) {
  const { t } = useTranslation('auth');
  const reset = useResetPassword();
  const [rest, setRest] = useState<string[]>([]);
  const form = useForm({ mode: 'onTouched', resolver: zodResolver(ZCodeForm), defaultValues: { code: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ code }) => {
    setRest([]);
    await delay(SUBMIT_DELAY_MS);
    try {
      const result = await reset.mutateAsync({ token, code });
      onVerified(code, result.email ?? '');
    } catch (error) {
      setRest(applyServerErrors(error, form.setError, ['code']));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <FormAlert messages={rest} />
        <TextInput
          label={t('code')}
          description={t('codeHint')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          {...form.register('code')}
          error={fieldError(errors.code)}
        />
        <Button type="submit" loading={isSubmitting} fullWidth>
          {t('verifyCode')}
        </Button>
      </Stack>
    </form>
  );
}
