import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { messageText } from '@herald/shared/common/messages';
import { z } from 'zod';
import { fieldError } from '../../../components/text-field-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';

const ZForm = z.object({ name: z.string().trim().min(1, messageText('name_required')).max(120), active: z.boolean() });
type Form = z.infer<typeof ZForm>;

interface Props {
  opened: boolean;
  title: string;
  nameLabel: string;
  submitLabel: string;
  initial?: { name: string; active: boolean };
  /** Lists have an active/inactive switch; sources only a name. */
  withStatus?: boolean;
  onSubmit: (values: Form) => Promise<unknown>;
  onClose: () => void;
}

/** Create or edit a source or a list: a name, and for lists the status. */
export function NameModal({ opened, title, nameLabel, submitLabel, initial, withStatus, onSubmit, onClose }: Props) {
  const { t } = useTranslation('sources');
  const defaults = initial ?? { name: '', active: true };
  const form = useForm<Form>({ mode: 'onTouched', resolver: zodResolver(ZForm), defaultValues: defaults });
  const { errors, isSubmitting } = form.formState;

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the modal opens
  useEffect(() => {
    if (opened) form.reset(defaults);
  }, [opened]);

  const submit = form.handleSubmit(async (values) => {
    await delay(SUBMIT_DELAY_MS);
    try {
      await onSubmit(values);
    } catch (error) {
      applyServerErrors(error, form.setError, ['name']);
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={nameLabel}
            required
            data-autofocus
            {...form.register('name')}
            error={fieldError(errors.name)}
          />
          {withStatus && (
            <Controller
              control={form.control}
              name="active"
              render={({ field }) => (
                <Switch
                  label={t('activeList')}
                  checked={field.value}
                  onChange={(e) => field.onChange(e.currentTarget.checked)}
                />
              )}
            />
          )}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={isSubmitting}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={isSubmitting}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
