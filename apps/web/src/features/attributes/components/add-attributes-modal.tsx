import { encodeMessage } from '@herald/shared/common/messages';
import { ActionIcon, Button, Group, Modal, NumberInput, Stack, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form-alert.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCreateAttributes } from '../api/create-attributes.ts';

interface Row {
  key: number;
  name: string;
  sort_order: number;
}

/** Adds several attributes at once, each with a name and a sort order. */
export function AddAttributesModal({
  opened,
  onClose,
  nextOrder,
}: {
  opened: boolean;
  onClose: () => void;
  nextOrder: number;
}) {
  const { t } = useTranslation('settings');
  const create = useCreateAttributes();
  const fresh = (key: number, order: number): Row => ({ key, name: '', sort_order: order });
  const [rows, setRows] = useState<Row[]>([fresh(0, nextOrder)]);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: start afresh each time it opens
  useEffect(() => {
    if (opened) setRows([fresh(0, nextOrder)]);
  }, [opened]);

  const close = () => {
    setRows([fresh(0, nextOrder)]);
    setErrors({});
    setProblems([]);
    onClose();
  };
  const patch = (key: number, change: Partial<Row>) =>
    setRows((all) => all.map((r) => (r.key === key ? { ...r, ...change } : r)));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const missing = Object.fromEntries(
      rows.filter((r) => !r.name.trim()).map((r) => [r.key, translateMessage('attribute_name_required') ?? '']),
    );
    setErrors(missing);
    setProblems([]);
    if (Object.keys(missing).length) return;
    setBusy(true);
    await delay(SUBMIT_DELAY_MS);
    try {
      await create.mutateAsync(rows.map((r) => ({ name: r.name.trim(), sort_order: r.sort_order })));
      notifySuccess(t('attributes.created', { count: rows.length }));
      close();
    } catch (error) {
      if (isApiError(error) && error.status === 422)
        setProblems(Object.values(error.errors).flatMap((m) => (m[0] ? [encodeMessage(m[0])] : [])));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={t('attributes.add')} centered size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <FormAlert messages={problems} />
          {rows.map((row, i) => (
            <Group key={row.key} align="flex-start" wrap="nowrap">
              <NumberInput
                label={t('attributes.sortOrder')}
                w={110}
                min={0}
                max={100000}
                allowDecimal={false}
                value={row.sort_order}
                onChange={(v) => patch(row.key, { sort_order: Number(v) || 0 })}
              />
              <TextInput
                label={t('attributes.name')}
                required
                style={{ flex: 1 }}
                data-autofocus={i === 0 ? true : undefined}
                value={row.name}
                onChange={(e) => patch(row.key, { name: e.currentTarget.value })}
                error={errors[row.key]}
              />
              <ActionIcon
                mt={26}
                size="lg"
                variant="subtle"
                color="red"
                disabled={rows.length === 1}
                aria-label={t('attributes.removeRow', { n: i + 1 })}
                onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          <Group justify="space-between" mt="sm">
            <Button
              variant="subtle"
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() =>
                setRows((all) => [
                  ...all,
                  fresh(Math.max(...all.map((r) => r.key)) + 1, Math.max(...all.map((r) => r.sort_order)) + 1),
                ])
              }
            >
              {t('attributes.addRow')}
            </Button>
            <Group gap="xs">
              <Button variant="default" onClick={close} disabled={busy}>
                {t('common:cancel')}
              </Button>
              <Button type="submit" loading={busy}>
                {t('common:save')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
