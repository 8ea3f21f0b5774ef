import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { ActionIcon, Table, TextInput, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCreateLead } from '../api/create-lead.ts';
import { showLeadErrors } from './lead-form-errors.ts';
import { notifyMessages } from './notify-messages.ts';
import { attributeLabel } from '../../../lib/attribute-label.ts';

interface Props {
  place: { sourceId: number; listId: number };
  /** The visible attribute columns, in table order. */
  attributes: TLeadAttribute[];
  /** Empty cells before and after the attribute columns, so the inputs line up with them. */
  before: number;
  after: number;
}

/** The first row of a list's table: type values under their columns, Enter adds the lead. */
export function QuickInsertRow({ place, attributes, before, after }: Props) {
  const { t } = useTranslation('leads');
  const create = useCreateLead();
  const [values, setValues] = useState<Record<number, string>>({});
  const [errors, setErrors] = useState<Record<number, string>>({});

  const submit = () => {
    const filled = attributes.filter((a) => values[a.id]?.trim());
    if (filled.length === 0 || create.isPending) return;
    setErrors({});
    create.mutate(
      {
        source_id: place.sourceId,
        list_id: place.listId,
        attributes: filled.map((a) => ({ attr_id: a.id, value: values[a.id] })),
      },
      {
        onSuccess: (lead) => {
          setValues({});
          notifySuccess(t('leadAdded'));
          notifyMessages({ info: lead.info });
        },
        onError: (error) =>
          showLeadErrors(
            error,
            filled.map((a) => a.id),
            setErrors,
          ),
      },
    );
  };

  return (
    // The sticky first cells take the row's shade too (tables.css).
    <Table.Tr bg="var(--mantine-color-gray-0)" style={{ '--sticky-cell-bg': 'var(--mantine-color-gray-0)' }}>
      {Array.from({ length: before }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: empty spacer cells
        <Table.Td key={`b${i}`} />
      ))}
      {attributes.map((attribute) => (
        <Table.Td key={attribute.id}>
          <TextInput
            size="xs"
            miw={90}
            aria-label={t('newLeadValue', { name: attributeLabel(attribute) })}
            placeholder={attributeLabel(attribute)}
            value={values[attribute.id] ?? ''}
            error={errors[attribute.id]}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setValues((v) => ({ ...v, [attribute.id]: value }));
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') submit();
            }}
          />
        </Table.Td>
      ))}
      {Array.from({ length: Math.max(after - 1, 0) }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: empty spacer cells
        <Table.Td key={`a${i}`} />
      ))}
      <Table.Td>
        <Tooltip label={t('quickAdd')}>
          <ActionIcon aria-label={t('quickAdd')} onClick={submit} loading={create.isPending} variant="light">
            <IconPlus size={16} />
          </ActionIcon>
        </Tooltip>
      </Table.Td>
    </Table.Tr>
  );
}
