import { ZInviteRegisterRequest } from '@herald/shared/auth/auth.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, PasswordInput, Skeleton, Stack, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/text-field-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { useInvite } from '../api/get-invite.ts';
import { useRegisterByInvite } from '../api/register-by-invite.ts';
import { FormAlert } from '../../../components/form-alert.tsx';
import { LegalLinks } from './legal-links.tsx';

const FIELDS = ['name', 'password', 'password_confirmation'] as const;

/** Registration through an invitation: the e-mail comes from the invite and cannot change. */
export function InviteRegisterForm({ token }: { token: string }) {
  const { t } = useTranslation('auth');
  const invite = useInvite(token);
  const register = useRegisterByInvite();
  const [rest, setRest] = useState<string[]>([]);
  const form = useForm({
    mode: 'onTouched',
    resolver: zodResolver(ZInviteRegisterRequest),
    defaultValues: { name: '', email: '', password: '', password_confirmation: '', token },
  });
  const { errors, isSubmitting } = form.formState;
  const email = invite.data?.email;

  useEffect(() => {
    if (email) form.setValue('email', email);
  }, [email, form]);

  const onSubmit = form.handleSubmit(async (values) => {
    setRest([]);
    await delay(SUBMIT_DELAY_MS);
    try {
      await register.mutateAsync(values);
    } catch (error) {
      setRest(applyServerErrors(error, form.setError, FIELDS));
    }
  });

  const blocked = invite.isPending || invite.isError || isSubmitting || register.isPending;

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        {invite.isError && (
          <Alert color="red" role="alert">
            {describeApiError(invite.error)}
          </Alert>
        )}
        <FormAlert messages={rest} />
        <TextInput
          label={t('fullName')}
          autoComplete="name"
          required
          {...form.register('name')}
          error={fieldError(errors.name)}
        />
        {invite.isPending ? (
          <Skeleton height={60} aria-label={t('common:loading')} />
        ) : (
          <TextInput label={t('email')} type="email" value={email ?? ''} readOnly error={fieldError(errors.email)} />
        )}
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
        <Button type="submit" loading={isSubmitting} disabled={blocked} fullWidth>
          {t('register')}
        </Button>
        <LegalLinks />
      </Stack>
    </form>
  );
}
