import { isAlphaName, type TAlphaName } from '@herald/shared/alpha-names/alpha-names.schemas';
import { Badge, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconPlus, IconStarFilled } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useAlphaNames } from '../api/get-alpha-names.ts';
import { useSetDefaultAlphaName } from '../api/set-default-alpha-name.ts';
import { useStoreAlphaName } from '../api/store-alpha-name.ts';

const STATUS_COLOR = { 0: 'gray', 1: 'teal', 2: 'yellow' } as const;

/**
 * The team's sender names: ask for one (it waits on review), make an active one the default.
 * Used by `/alpha-names` and the settings tab alike.
 */
export function AlphaNamesPanel({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation('alpha-names');
  const names = useAlphaNames();
  const store = useStoreAlphaName();
  const setDefault = useSetDefaultAlphaName();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const rows = names.data?.data ?? [];
  // Who reviews a new name and how long it usually takes, said where names wait on review.
  const review = names.data?.review && (canManage || rows.some((r) => r.status === 2)) ? names.data.review : undefined;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const value = name.trim();
    if (!isAlphaName(value)) return setError(translateMessage(value ? 'alpha_name_invalid' : 'name_required'));
    store.mutate(value, {
      onSuccess: (result) => {
        if (result.status === 'limit') return notifyError(translateMessage(result.code) ?? result.message);
        notifySuccess(translateMessage(result.code) ?? result.message);
        setName('');
        setError(undefined);
      },
      onError: (e) =>
        isApiError(e) && e.errors.name
          ? setError(translateMessage(e.errors.name[0]))
          : notifyError(describeApiError(e)),
    });
  };

  const makeDefault = (row: TAlphaName) =>
    setDefault.mutate(row.id, {
      onSuccess: (result) => notifySuccess(translateMessage(result.code) ?? result.message),
      onError: (e) => notifyError(describeApiError(e)),
    });

  return (
    <Stack>
      {canManage && (
        <form onSubmit={submit} noValidate>
          <Group align="flex-start" gap="sm">
            <TextInput
              label={t('name')}
              value={name}
              maxLength={11}
              onChange={(e) => {
                setName(e.currentTarget.value);
                setError(undefined);
              }}
              error={error}
              w={{ base: '100%', xs: 320 }}
            />
            <Button
              type="submit"
              mt={{ base: 0, xs: 25 }}
              leftSection={<IconPlus size={16} aria-hidden />}
              loading={store.isPending}
            >
              {t('add')}
            </Button>
          </Group>
          <Text size="xs" c="dimmed" mt={4}>
            {t('rules')}
          </Text>
        </form>
      )}
      {names.isPending ? (
        <LoadingState rows={3} />
      ) : names.isError ? (
        <ErrorState error={names.error} onRetry={() => names.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState text={translateMessage('no_alpha_names') ?? ''} />
      ) : (
        <Table aria-label={t('title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('name')}</Table.Th>
              <Table.Th>{t('statusLabel')}</Table.Th>
              <Table.Th>{t('createdAt')}</Table.Th>
              <Table.Th>{t('default')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id} style={row.active ? undefined : { opacity: 0.55 }} data-active={row.active}>
                <Table.Td fw={500}>{row.name}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={STATUS_COLOR[row.status]}>
                    {t(`status.${row.status}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {formatDateTime(row.created_at)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {row.default ? (
                    <Group gap={4} c="yellow.7">
                      <IconStarFilled size={14} aria-hidden />
                      <Text size="sm">{t('default')}</Text>
                    </Group>
                  ) : (
                    canManage &&
                    row.active && (
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        aria-label={t('makeDefaultNamed', { name: row.name })}
                        loading={setDefault.isPending && setDefault.variables === row.id}
                        onClick={() => makeDefault(row)}
                      >
                        {t('makeDefault')}
                      </Button>
                    )
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {review && (
        <Text size="sm" c="dimmed" role="note" data-testid="alpha-review-note">
          {review.by === 'automatic'
            ? t('review.automatic', { count: review.seconds })
            : t('review.admins', { count: Math.round(review.seconds / 3600) })}
        </Text>
      )}
    </Stack>
  );
}
