import { type TUser, ZUpdateUserRequest } from '@herald/shared/auth/auth.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/text-field-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useUpdateUser } from '../api/update-user.ts';
import { FormAlert } from '../../../components/form-alert.tsx';

/** Personal information: name and phone; the e-mail is read-only. */
export function ProfileForm({ user }: { user: TUser }) {
  const { t } = useTranslation('profile');
  const update = useUpdateUser();
  const [rest, setRest] = useState<string[]>([]);
  const form = useForm({
    mode: 'onTouched',
    resolver: zodResolver(ZUpdateUserRequest),
    defaultValues: { name: user.name, phone: user.phone ?? '' },
  });
  const { errors, isSubmitting, isDirty } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setRest([]);
    await delay(SUBMIT_DELAY_MS);
    try {
      const saved = await update.mutateAsync({ id: user.id, name: values.name, phone: values.phone ?? null });
      form.reset({ name: saved.name, phone: saved.phone ?? '' });
      notifySuccess(t('updated'));
    } catch (error) {
      setRest(applyServerErrors(error, form.setError, ['name', 'phone']));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack maw={480}>
        <FormAlert messages={rest} />
        <TextInput
          label={t('name')}
          autoComplete="name"
          required
          {...form.register('name')}
          error={fieldError(errors.name)}
        />
        <TextInput
          label={t('phone')}
          type="tel"
          autoComplete="tel"
          placeholder="+380501234567"
          {...form.register('phone')}
          error={fieldError(errors.phone)}
        />
        <TextInput label={t('email')} value={user.email} readOnly description={t('emailReadOnly')} />
        <Group>
          <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
            {t('common:save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
