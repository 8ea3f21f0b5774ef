import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { NEW_ATTRIBUTE_TYPES, type TImportFile, type TNewAttributeType } from '@herald/shared/imports/imports.schemas';
import { Alert, Button, Checkbox, Group, ScrollArea, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { attributeLabel } from '../../../lib/attribute-label.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { describeApiError, firstFieldMessages } from '../../../lib/describe-api-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useDispatchImport } from '../api/dispatch-import.ts';
import { useMapImportColumns } from '../api/map-import-columns.ts';
import { type ColumnChoice, initialChoices, mappingRequestOf } from '../mapping-request.ts';

interface Props {
  file: TImportFile;
  attributes: TLeadAttribute[];
  onStarted: (file: TImportFile) => void;
  onCancel: () => void;
}

const SAMPLES = 3;

/**
 * Match Format: each column becomes an existing attribute, a new one, or is not imported. The
 * server's proposal is preselected; a column it could not match is proposed as a new attribute of
 * its own name, so importing at once loses no data.
 */
export function MatchFormatStep({ file, attributes, onStarted, onCancel }: Props) {
  const { t } = useTranslation('imports');
  const map = useMapImportColumns();
  const dispatch = useDispatchImport();
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  // A lookup of the imported list once the import completes (paid, like any lookup).
  const [checkMobile, setCheckMobile] = useState(false);
  const [choices, setChoices] = useState<Record<number, ColumnChoice>>(() =>
    initialChoices(file.attributes, new Set(attributes.map((a) => a.id)), file.preview),
  );
  const columns = [...file.attributes].sort((a, b) => a.col_position - b.col_position);
  const set = (id: number, patch: Partial<ColumnChoice>) =>
    setChoices((current) => ({ ...current, [id]: { ...current[id], ...patch } }));

  const options = [
    {
      group: t('choose'),
      items: [
        { value: 'ignore', label: t('ignore') },
        { value: 'new', label: t('newAttribute') },
      ],
    },
    {
      group: t('existing'),
      items: attributes.map((a) => ({ value: `attr:${a.id}`, label: attributeLabel(a) })),
    },
  ];

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const list = mappingRequestOf(columns, choices);
    const missing: string[] = [];
    if (list.length === 0) missing.push(t('errors:import_mapping_required'));
    if (list.some((e) => e.name !== undefined && e.name === '')) missing.push(t('attributeNameRequired'));
    setProblems(missing);
    if (missing.length) return;
    setBusy(true);
    await delay(SUBMIT_DELAY_MS);
    try {
      await map.mutateAsync({ id: file.id, list, ...(checkMobile ? { check_mobile_status: true } : {}) });
      const started = await dispatch.mutateAsync(file.id);
      onStarted(started);
    } catch (error) {
      const title = describeApiError(error);
      const fields = isApiError(error) ? firstFieldMessages(error.errors).filter((m) => m !== title) : [];
      setProblems([title, ...fields]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('matchIntro', {
            name: file.client_original_name,
            count: columns.length,
            rows: formatNumber(Math.min(SAMPLES, file.preview.length)),
          })}
        </Text>
        {problems.length > 0 && (
          <Alert color="red" role="alert" icon={<IconX size={18} aria-hidden />}>
            {problems.map((p) => (
              <div key={p}>{p}</div>
            ))}
          </Alert>
        )}
        <ScrollArea.Autosize mah="55vh" type="auto" offsetScrollbars>
          <Table verticalSpacing="sm" aria-label={t('matchFormat')} layout="fixed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="25%">{t('column')}</Table.Th>
                <Table.Th w="40%">{t('samples')}</Table.Th>
                <Table.Th w="35%">{t('importAs')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {columns.map((c) => {
                const choice = choices[c.id];
                const samples = file.preview
                  .slice(0, SAMPLES)
                  .map((row) => row[c.col_position] ?? '')
                  .filter(Boolean);
                return (
                  <Table.Tr key={c.id} data-column={c.name}>
                    <Table.Td>
                      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                        {c.name}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {samples.length === 0 ? (
                        <Text size="sm" c="dimmed">
                          {t('noSamples')}
                        </Text>
                      ) : (
                        samples.map((s, i) => (
                          // biome-ignore lint/suspicious/noArrayIndexKey: rows of a fixed preview
                          <Text key={i} size="sm" c="dimmed" truncate="end" title={s}>
                            {s}
                          </Text>
                        ))
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Stack gap={6}>
                        <Select
                          aria-label={t('importColumnAs', { name: c.name })}
                          data={options}
                          value={choice.target}
                          allowDeselect={false}
                          onChange={(v) => v && set(c.id, { target: v })}
                          comboboxProps={{ withinPortal: true }}
                        />
                        {choice.target === 'new' && (
                          <>
                            <TextInput
                              aria-label={t('newAttributeName', { name: c.name })}
                              placeholder={t('newAttributeNamePlaceholder')}
                              value={choice.name}
                              maxLength={80}
                              error={choice.name.trim() === '' ? t('attributeNameRequired') : undefined}
                              onChange={(e) => set(c.id, { name: e.currentTarget.value })}
                            />
                            <Select
                              aria-label={t('newAttributeType', { name: c.name })}
                              data={NEW_ATTRIBUTE_TYPES.map((type) => ({
                                value: type,
                                label: t(`settings:attributes.types.${type}`),
                              }))}
                              value={choice.type}
                              allowDeselect={false}
                              onChange={(v) => v && set(c.id, { type: v as TNewAttributeType })}
                              comboboxProps={{ withinPortal: true }}
                            />
                          </>
                        )}
                      </Stack>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        <Checkbox
          label={t('checkMobileStatus')}
          description={t('checkMobileStatusHint')}
          checked={checkMobile}
          onChange={(e) => setCheckMobile(e.currentTarget.checked)}
          disabled={busy}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {t('common:cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('run')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
