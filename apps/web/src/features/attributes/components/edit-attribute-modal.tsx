import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { Button, Group, Modal, NumberInput, Stack, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useUpdateAttribute } from '../api/update-attribute.ts';

/** Rename a custom attribute or move it in the order. */
export function EditAttributeModal({ attribute, onClose }: { attribute: TLeadAttribute | null; onClose: () => void }) {
  const { t } = useTranslation('settings');
  const update = useUpdateAttribute();
  const [name, setName] = useState('');
  const [order, setOrder] = useState(0);
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    if (attribute) {
      setName(attribute.name);
      setOrder(attribute.sort_order);
      setError(undefined);
    }
  }, [attribute]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!attribute) return;
    if (!name.trim()) {
      setError(translateMessage('attribute_name_required'));
      return;
    }
    update.mutate(
      { id: attribute.id, name: name.trim(), sort_order: order },
      {
        onSuccess: () => {
          notifySuccess(t('attributes.saved'));
          onClose();
        },
        onError: (e) => setError(isApiError(e) ? translateMessage(e.errors.name?.[0]) : undefined),
      },
    );
  };

  return (
    <Modal opened={attribute !== null} onClose={onClose} title={t('attributes.edit')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('attributes.name')}
            required
            data-autofocus
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={error}
          />
          <NumberInput
            label={t('attributes.sortOrder')}
            min={0}
            max={100000}
            allowDecimal={false}
            value={order}
            onChange={(v) => setOrder(Number(v) || 0)}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={update.isPending}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={update.isPending}>
              {t('common:save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
