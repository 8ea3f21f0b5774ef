import { ZCreateInvitationRequest } from '@herald/shared/team/team.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/text-field-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { FormAlert } from '../../../components/form-alert.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCreateInvitation } from '../api/create-invitation.ts';
import { RoleRadioGroup } from './role-radio-group.tsx';

const DEFAULTS = { email: '', role: 'team_operator' as const };

/** Invite User: e-mail and role; the invitation mail goes out at once. */
export function InviteModal({
  opened,
  onClose,
  onInvited,
}: {
  opened: boolean;
  onClose: () => void;
  onInvited: () => void;
}) {
  const { t } = useTranslation('team');
  const create = useCreateInvitation();
  const [rest, setRest] = useState<string[]>([]);
  const form = useForm({ mode: 'onTouched', resolver: zodResolver(ZCreateInvitationRequest), defaultValues: DEFAULTS });
  const { errors, isSubmitting } = form.formState;

  const close = () => {
    form.reset(DEFAULTS);
    setRest([]);
    onClose();
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setRest([]);
    await delay(SUBMIT_DELAY_MS);
    try {
      await create.mutateAsync(values);
      notifySuccess(t('invited', { email: values.email }));
      form.reset(DEFAULTS);
      onInvited();
    } catch (error) {
      setRest(applyServerErrors(error, form.setError, ['email', 'role']));
    }
  });

  return (
    <Modal opened={opened} onClose={close} title={t('inviteUser')} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormAlert messages={rest} />
          <TextInput
            label={t('email')}
            type="email"
            required
            data-autofocus
            {...form.register('email')}
            error={fieldError(errors.email)}
          />
          <Controller
            control={form.control}
            name="role"
            render={({ field }) => (
              <RoleRadioGroup value={field.value} onChange={field.onChange} error={fieldError(errors.role)} />
            )}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={isSubmitting}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={isSubmitting}>
              {t('sendInvite')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
