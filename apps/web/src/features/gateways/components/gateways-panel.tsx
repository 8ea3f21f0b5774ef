import type { TGateway } from '@herald/shared/gateways/gateways.schemas';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDeleteGateway } from '../api/delete-gateway.ts';
import { useGatewayTypes } from '../api/get-gateway-types.ts';
import { useGateways } from '../api/get-gateways.ts';
import { useTestGateway } from '../api/test-gateway.ts';
import { GatewayFormModal } from './gateway-form-modal.tsx';
import { GatewaysTable } from './gateways-table.tsx';

/** Settings → SMS gateways: the list, add, edit, delete, and "test connection". */
export function GatewaysPanel() {
  const { t } = useTranslation('gateways');
  const gateways = useGateways();
  const types = useGatewayTypes();
  const remove = useDeleteGateway();
  const test = useTestGateway();
  const [editing, setEditing] = useState<TGateway | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<TGateway | null>(null);
  const list = gateways.data ?? [];
  const typeLabel = (type: string) => types.data?.types.find((x) => x.key === type)?.label ?? type;

  const runTest = (gateway: TGateway) =>
    test.mutate(gateway.id, {
      onSuccess: (result) =>
        result.ok
          ? notifySuccess(t('testPassed', { name: gateway.name }))
          : notifyError(
              t('testFailed', { name: gateway.name }),
              // The provider's own words are quoted as theirs, after the reason in the user's language.
              [translateMessage(result.code), result.detail ? t('providerSaid', { detail: result.detail }) : '']
                .filter(Boolean)
                .join(' '),
            ),
    });

  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed" maw={560}>
          {t('intro')}
        </Text>
        <Button
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => {
            setEditing(null);
            setFormOpen(true);
          }}
        >
          {t('add')}
        </Button>
      </Group>
      {gateways.isPending ? (
        <LoadingState rows={4} />
      ) : gateways.isError ? (
        <ErrorState error={gateways.error} onRetry={() => gateways.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState text={t('empty')} />
      ) : (
        <GatewaysTable
          gateways={list}
          typeLabel={typeLabel}
          testingId={test.isPending ? (test.variables ?? null) : null}
          onTest={runTest}
          onEdit={(g) => {
            setEditing(g);
            setFormOpen(true);
          }}
          onDelete={setDeleting}
        />
      )}
      <GatewayFormModal opened={formOpen} gateway={editing} onClose={() => setFormOpen(false)} />
      <ConfirmModal
        opened={deleting !== null}
        title={t('deleteTitle')}
        message={t('deleteConfirm', { name: deleting?.name ?? '' })}
        confirmLabel={t('common:delete')}
        danger
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => notifySuccess(t('deleted', { name: deleting.name })),
            onSettled: () => setDeleting(null),
          })
        }
      />
    </Stack>
  );
}
