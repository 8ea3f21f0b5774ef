import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { Button, Group, Modal, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form-alert.tsx';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCreateLead } from '../api/create-lead.ts';
import { showLeadErrors } from './lead-form-errors.ts';
import { notifyMessages } from './notify-messages.ts';
import { attributeLabel } from '../../../lib/attribute-label.ts';

export interface PlaceOption {
  id: number;
  name: string;
  lists: { id: number; name: string }[];
}

interface Props {
  opened: boolean;
  onClose: () => void;
  attributes: TLeadAttribute[];
  /** The list the lead goes to; without it the modal asks for a source and a list. */
  place?: { sourceId: number; listId: number };
  places?: PlaceOption[];
}

/** Add Lead: one input per attribute; only filled ones are sent. */
export function AddLeadModal({ opened, onClose, attributes, place, places = [] }: Props) {
  const { t } = useTranslation('leads');
  const create = useCreateLead();
  const [values, setValues] = useState<Record<number, string>>({});
  const [sourceId, setSourceId] = useState<string | null>(null);
  const [listId, setListId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const lists = places.find((p) => String(p.id) === sourceId)?.lists ?? [];

  const close = () => {
    setValues({});
    setErrors({});
    setProblems([]);
    onClose();
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const target = place ?? { sourceId: Number(sourceId), listId: Number(listId) };
    const filled = attributes.filter((a) => values[a.id]?.trim());
    const missing = [
      ...(target.sourceId ? [] : ['source_required']),
      ...(target.listId ? [] : ['list_required']),
      ...(filled.length ? [] : ['values_required']),
    ];
    setErrors({});
    setProblems(missing);
    if (missing.length) return;
    setBusy(true);
    await delay(SUBMIT_DELAY_MS);
    try {
      const lead = await create.mutateAsync({
        source_id: target.sourceId,
        list_id: target.listId,
        attributes: filled.map((a) => ({ attr_id: a.id, value: values[a.id] })),
      });
      notifySuccess(t('leadAdded'));
      notifyMessages({ info: lead.info });
      close();
    } catch (error) {
      showLeadErrors(
        error,
        filled.map((a) => a.id),
        setErrors,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={t('addLead')} centered size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <FormAlert messages={problems} />
          {!place && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label={t('source')}
                required
                searchable
                data={places.map((p) => ({ value: String(p.id), label: p.name }))}
                value={sourceId}
                onChange={(v) => {
                  setSourceId(v);
                  setListId(null);
                }}
                nothingFoundMessage={t('sources:noSources')}
              />
              <Select
                label={t('list')}
                required
                searchable
                disabled={!sourceId}
                data={lists.map((l) => ({ value: String(l.id), label: l.name }))}
                value={listId}
                onChange={setListId}
                nothingFoundMessage={t('sources:noLists')}
              />
            </SimpleGrid>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {attributes.map((attribute, i) => (
              <TextInput
                key={attribute.id}
                label={attributeLabel(attribute)}
                data-autofocus={i === 0 ? true : undefined}
                value={values[attribute.id] ?? ''}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setValues((v) => ({ ...v, [attribute.id]: value }));
                }}
                error={errors[attribute.id]}
              />
            ))}
          </SimpleGrid>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={busy}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('addLead')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
