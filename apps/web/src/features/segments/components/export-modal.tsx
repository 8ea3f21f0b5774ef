import { zodResolver } from '@hookform/resolvers/zod';
import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { ZExportRequest } from '@herald/shared/segments/segments.schemas';
import { Button, Checkbox, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { messageText } from '@herald/shared/common/messages';
import { z } from 'zod';
import { fieldError } from '../../../components/text-field-error.ts';
import { attributeLabel } from '../../../lib/attribute-label.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useExportSegmentLeads } from '../api/export-segment-leads.ts';

const ZForm = z.object({
  name: ZExportRequest.shape.name,
  attributes: z.array(z.string()).min(1, messageText('attributes_required')),
});
type Form = z.infer<typeof ZForm>;

interface Props {
  opened: boolean;
  onClose: () => void;
  segmentId: number;
  attributes: TLeadAttribute[];
  /** The table's current search and order go with the export (spec section 3, SMS export). */
  search: string;
  order: string;
}

/** Export as CSV: a name (required) and the attributes to write, in the table's search and order. */
export function ExportModal({ opened, onClose, segmentId, attributes, search, order }: Props) {
  const { t } = useTranslation('segments');
  const exportLeads = useExportSegmentLeads();
  const all = attributes.map((a) => String(a.id));
  const form = useForm<Form>({
    mode: 'onTouched',
    resolver: zodResolver(ZForm),
    defaultValues: { name: '', attributes: all },
  });
  const { errors, isSubmitting } = form.formState;

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the modal opens
  useEffect(() => {
    if (opened) form.reset({ name: '', attributes: all });
  }, [opened]);

  const submit = form.handleSubmit(async (values) => {
    await delay(SUBMIT_DELAY_MS);
    try {
      await exportLeads.mutateAsync({
        id: segmentId,
        name: values.name,
        // Columns keep the table's order of attributes.
        attributes: all.filter((id) => values.attributes.includes(id)).map(Number),
        search: search || undefined,
        order,
      });
      notifySuccess(t('exportStarted', { name: values.name }));
      onClose();
    } catch (error) {
      applyServerErrors(error, form.setError, ['name']);
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t('exportTitle')} centered size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('exportName')}
            required
            data-autofocus
            {...form.register('name')}
            error={fieldError(errors.name)}
          />
          <Controller
            control={form.control}
            name="attributes"
            render={({ field }) => (
              <Checkbox.Group
                label={t('exportAttributes')}
                value={field.value}
                onChange={field.onChange}
                error={fieldError(errors.attributes as never)}
              >
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
                  {attributes.map((a) => (
                    <Checkbox key={a.id} value={String(a.id)} label={attributeLabel(a)} />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
            )}
          />
          {search && (
            <Text size="sm" c="dimmed">
              {t('exportSearch', { search })}
            </Text>
          )}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={isSubmitting}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={isSubmitting}>
              {t('exportSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
