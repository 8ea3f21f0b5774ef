import { zodResolver } from '@hookform/resolvers/zod';
import { ZCreateSegmentRequest } from '@herald/shared/segments/segments.schemas';
import { Button, Group, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { fieldError } from '../../../components/text-field-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';

const ZForm = z.object({ name: ZCreateSegmentRequest.shape.name, dynamic: z.boolean() });
type Form = z.infer<typeof ZForm>;

export type SegmentModalMode = 'create' | 'createChild' | 'edit' | 'duplicate';

interface Props {
  opened: boolean;
  mode: SegmentModalMode;
  initial?: { name: string; ignore_new_leads: boolean };
  onSubmit: (values: { name: string; ignore_new_leads: boolean }) => Promise<unknown>;
  onClose: () => void;
}

/** Create, edit or duplicate an audience, or create a child segment: a name and 'Update dynamically'. */
export function SegmentModal({ opened, mode, initial, onSubmit, onClose }: Props) {
  const { t } = useTranslation('segments');
  const defaults: Form = initial
    ? {
        name: mode === 'duplicate' ? t('copyName', { name: initial.name }) : initial.name,
        dynamic: !initial.ignore_new_leads,
      }
    : { name: '', dynamic: true };
  const form = useForm<Form>({ mode: 'onTouched', resolver: zodResolver(ZForm), defaultValues: defaults });
  const { errors, isSubmitting } = form.formState;

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the modal opens
  useEffect(() => {
    if (opened) form.reset(defaults);
  }, [opened]);

  const submit = form.handleSubmit(async ({ name, dynamic }) => {
    await delay(SUBMIT_DELAY_MS);
    try {
      await onSubmit({ name, ignore_new_leads: !dynamic });
    } catch (error) {
      applyServerErrors(error, form.setError, ['name']);
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t(`modal.${mode}`)} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t(mode === 'createChild' ? 'segmentName' : 'audienceName')}
            required
            data-autofocus
            {...form.register('name')}
            error={fieldError(errors.name)}
          />
          {mode !== 'duplicate' && (
            <Controller
              control={form.control}
              name="dynamic"
              render={({ field }) => (
                <Switch
                  label={t('updateDynamically')}
                  description={t(field.value ? 'dynamicHint' : 'frozenHint')}
                  checked={field.value}
                  onChange={(e) => field.onChange(e.currentTarget.checked)}
                />
              )}
            />
          )}
          {mode === 'duplicate' && (
            <Text size="sm" c="dimmed">
              {t('duplicateHint')}
            </Text>
          )}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={isSubmitting}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={isSubmitting}>
              {t(`modal.${mode}Submit`)}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
