import { Alert, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { type LookupTarget, useLookupPreview } from '../api/get-lookup-preview.ts';
import { useMoveLookups } from '../api/lookup-moves.ts';

interface Props {
  /** The sources or lists chosen, with their names; null when closed. */
  target: (LookupTarget & { names: string[] }) | null;
  onClose: () => void;
  /** Opens the balance's top-up (the billing screens' own dialog). */
  onTopUp?: () => void;
}

/**
 * Before a lookup of sources or lists starts: how many phones, how many already have a fresh
 * result (free), and what the rest costs against the balance. Short money does not stop the start:
 * the lookup runs until the balance ends, then pauses with the spec's message (decision 042).
 */
export function LookupStartModal({ target, onClose, onTopUp }: Props) {
  const { t } = useTranslation('lookups');
  const preview = useLookupPreview(target);
  const move = useMoveLookups();
  const p = preview.data;
  const short = p ? p.total > p.balance : false;
  const money = (v: number) => formatMoney(v, p?.currency);
  const figures = p
    ? [
        { key: 'previewPhones', value: formatNumber(p.phones) },
        { key: 'previewFresh', value: formatNumber(p.fresh) },
        { key: 'previewToPay', value: formatNumber(p.to_pay) },
        { key: 'previewPrice', value: money(p.price) },
        { key: 'previewTotal', value: money(p.total), strong: true },
        { key: 'previewBalance', value: money(p.balance), alert: short },
      ]
    : [];

  const start = () => {
    if (!target) return;
    move.mutate(
      { kind: 'create', target: { kind: target.kind, ids: target.ids } },
      {
        onSuccess: (answer) => {
          notifySuccess(translateMessage(answer.message) ?? '');
          onClose();
        },
      },
    );
  };

  return (
    <Modal opened={target !== null} onClose={onClose} title={t('startTitle')} centered>
      {target && (
        <Stack>
          <Text size="sm" lineClamp={3}>
            {t(`startFor_${target.kind}`, { count: target.ids.length, names: target.names.join(', ') })}
          </Text>
          {preview.isPending ? (
            <LoadingState rows={3} />
          ) : preview.isError ? (
            <ErrorState error={preview.error} onRetry={() => preview.refetch()} />
          ) : (
            <Table aria-label={t('startTitle')} data-lookup-preview>
              <Table.Tbody>
                {figures.map((f) => (
                  <Table.Tr key={f.key}>
                    <Table.Th scope="row" fw={f.strong ? 600 : 400}>
                      {t(f.key)}
                    </Table.Th>
                    <Table.Td
                      ta="right"
                      fw={f.strong ? 600 : 400}
                      c={f.alert ? 'red.7' : undefined}
                      data-figure={f.key}
                    >
                      {f.value}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {p && p.phones === 0 && (
            <Alert color="gray" variant="light">
              {translateMessage({ code: 'lookup_list_empty' })}
            </Alert>
          )}
          {p && p.to_pay === 0 && p.phones > 0 && (
            <Alert color="teal" variant="light">
              {t('previewNothing')}
            </Alert>
          )}
          {short && (
            <Alert color="red" variant="light" title={translateMessage({ code: 'balance_not_enough_lookup' })}>
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{t('notEnoughHint')}</Text>
                {onTopUp && (
                  <Button size="compact-sm" variant="light" color="red" onClick={onTopUp}>
                    {t('topUp')}
                  </Button>
                )}
              </Stack>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:cancel')}
            </Button>
            <Button loading={move.isPending} disabled={!p || p.phones === 0} onClick={start}>
              {t('startLookup')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
