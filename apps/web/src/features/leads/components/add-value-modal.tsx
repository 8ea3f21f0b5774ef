import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TLead } from '@herald/shared/leads/leads.schemas';
import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useAddLeadValue } from '../api/add-lead-value.ts';
import { attributeLabel } from '../../../lib/attribute-label.ts';

/** Add Value: attributes the lead already has are not offered (spec section 4). */
export function AddValueModal({
  opened,
  onClose,
  lead,
  attributes,
}: {
  opened: boolean;
  onClose: () => void;
  lead: TLead;
  attributes: TLeadAttribute[];
}) {
  const { t } = useTranslation('leads');
  const add = useAddLeadValue();
  const [attributeId, setAttributeId] = useState<string | null>(null);
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<{ attribute?: string; value?: string }>({});
  const choices = attributes.filter((a) => !lead.lead_values.some((v) => v.attribute.id === a.id));

  const close = () => {
    setAttributeId(null);
    setValue('');
    setErrors({});
    onClose();
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const attribute = choices.find((a) => String(a.id) === attributeId);
    const next = {
      attribute: attribute ? undefined : translateMessage('attribute_required'),
      value: value.trim() ? undefined : translateMessage('value_required'),
    };
    setErrors(next);
    if (!attribute || next.value) return;
    add.mutate(
      { leadId: lead.id, attribute, value: value.trim() },
      {
        onSuccess: () => {
          notifySuccess(t('valueAdded'));
          close();
        },
        onError: (e) => setErrors({ value: isApiError(e) ? translateMessage(e.errors.value?.[0]) : undefined }),
      },
    );
  };

  return (
    <Modal opened={opened} onClose={close} title={t('addValue')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Select
            label={t('attribute')}
            required
            data={choices.map((a) => ({ value: String(a.id), label: attributeLabel(a) }))}
            value={attributeId}
            onChange={setAttributeId}
            error={errors.attribute}
            nothingFoundMessage={t('noAttributesLeft')}
            comboboxProps={{ withinPortal: true }}
          />
          <TextInput
            label={t('value')}
            required
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            error={errors.value}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={add.isPending}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={add.isPending}>
              {t('addValue')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
