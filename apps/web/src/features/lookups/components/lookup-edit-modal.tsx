import { canStopLookup, type TLookup } from '@herald/shared/lookups/lookups.schemas';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useUpdateLookup } from '../api/edit-lookups.ts';
import { useLookupGateways } from '../api/get-lookup-gateways.ts';
import { lookupName } from './lookups-table.tsx';

/**
 * A row's dialog: its figures, and the gateway that looks its phones up. A running lookup cannot
 * change gateway (the server refuses it too): stop it first.
 */
export function LookupEditModal({ lookup, onClose }: { lookup: TLookup | null; onClose: () => void }) {
  const { t } = useTranslation('lookups');
  const gateways = useLookupGateways(lookup !== null);
  const update = useUpdateLookup();
  const [gateway, setGateway] = useState<string | null>(null);
  useEffect(() => setGateway(lookup?.gateway ? String(lookup.gateway.id) : null), [lookup]);
  const running = lookup ? canStopLookup(lookup.status) : false;
  const offered = (gateways.data ?? []).map((g) => ({ value: String(g.id), label: g.name }));
  // The gateway it holds stays shown even when it no longer allows lookups.
  if (lookup?.gateway && !offered.some((o) => o.value === String(lookup.gateway?.id)))
    offered.unshift({ value: String(lookup.gateway.id), label: lookup.gateway.name });

  return (
    <Modal opened={lookup !== null} onClose={onClose} title={t('edit')} centered>
      {lookup && (
        <Stack>
          <Text fw={500}>{lookupName(lookup)}</Text>
          <Text size="sm" c="dimmed">
            {t('column.phones')}: {formatNumber(lookup.phones)} · {t('column.reused')}: {formatNumber(lookup.reused)} ·{' '}
            {t('column.cost')}: {formatMoney(lookup.cost, lookup.currency)}
          </Text>
          {lookup.reason && (
            <Alert color="yellow" variant="light">
              {translateMessage({ code: lookup.reason })}
            </Alert>
          )}
          <Select
            label={t('gateway')}
            description={running ? translateMessage({ code: 'lookup_running_locked' }) : t('gatewayHint')}
            data={offered}
            value={gateway}
            onChange={setGateway}
            disabled={running}
            allowDeselect={false}
          />
          {!gateways.isPending && offered.length === 0 && (
            <Alert color="yellow" variant="light">
              {t('noGateway')}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:cancel')}
            </Button>
            <Button
              loading={update.isPending}
              disabled={running || !gateway || gateway === String(lookup.gateway?.id ?? '')}
              onClick={() =>
                update.mutate(
                  { id: lookup.id, gatewayId: Number(gateway) },
                  {
                    onSuccess: () => {
                      notifySuccess(t('saved'));
                      onClose();
                    },
                  },
                )
              }
            >
              {t('common:save')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
