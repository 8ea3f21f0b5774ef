import { zodResolver } from '@hookform/resolvers/zod';
import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { ZExportRequest } from '@herald/shared/segments/segments.schemas';
import {
  Button,
  Checkbox,
  Group,
  Input,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { messageText } from '@herald/shared/common/messages';
import { z } from 'zod';
import { fieldError } from '../../../components/text-field-error.ts';
import { attributeLabel } from '../../../lib/attribute-label.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { type ExportFormat, useExportSegmentLeads } from '../api/export-segment-leads.ts';

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

/** Export as CSV or XLSX: a name (required) and the attributes to write, in the table's search and order. */
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
  // XLSX keeps phones as text in a spreadsheet; CSV suits other tools and re-imports.
  const [format, setFormat] = useState<ExportFormat>('csv');

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the modal opens
  useEffect(() => {
    if (opened) form.reset({ name: '', attributes: all });
    if (opened) setFormat('csv');
  }, [opened]);

  const submit = form.handleSubmit(async (values) => {
    await delay(SUBMIT_DELAY_MS);
    try {
      await exportLeads.mutateAsync({
        id: segmentId,
        format,
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
          <Input.Wrapper label={t('exportFormat')}>
            <SegmentedControl
              display="flex"
              mt={4}
              value={format}
              onChange={(value) => setFormat(value as ExportFormat)}
              data={[
                { value: 'csv', label: 'CSV' },
                { value: 'xlsx', label: t('exportXlsx') },
              ]}
            />
          </Input.Wrapper>
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
