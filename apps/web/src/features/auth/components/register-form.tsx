import { ZSignupRequest } from '@herald/shared/auth/auth.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/text-field-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { useSignup } from '../api/signup.ts';
import { FormAlert } from '../../../components/form-alert.tsx';
import { LegalLinks } from './legal-links.tsx';

const FIELDS = ['name', 'email', 'password', 'password_confirmation'] as const;

/** Creates the team owner's account; the new session then waits for the e-mail to be verified. */
export function RegisterForm() {
  const { t } = useTranslation('auth');
  const signup = useSignup();
  const [rest, setRest] = useState<string[]>([]);
  const form = useForm({
    mode: 'onTouched',
    resolver: zodResolver(ZSignupRequest),
    defaultValues: { name: '', email: '', password: '', password_confirmation: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setRest([]);
    await delay(SUBMIT_DELAY_MS);
    try {
      await signup.mutateAsync(values);
    } catch (error) {
      setRest(applyServerErrors(error, form.setError, FIELDS));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <FormAlert messages={rest} />
        <TextInput
          label={t('fullName')}
          autoComplete="name"
          required
          {...form.register('name')}
          error={fieldError(errors.name)}
        />
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
          {t('register')}
        </Button>
        <LegalLinks />
      </Stack>
    </form>
  );
}
