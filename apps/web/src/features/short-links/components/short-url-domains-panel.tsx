import { linkLength, normaliseHost } from '@herald/shared/short-links/short-link-code';
import type { TShortUrlDomain } from '@herald/shared/short-links/short-links.schemas';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconInfoCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDeleteShortUrlDomain } from '../api/delete-short-url-domain.ts';
import { useShortUrlDomainAccess } from '../api/get-short-url-domain-access.ts';
import { useShortUrlDomains } from '../api/get-short-url-domains.ts';
import { useStoreShortUrlDomain } from '../api/store-short-url-domain.ts';
import { useUpdateShortUrlDomain } from '../api/update-short-url-domain.ts';

/**
 * Settings → Short URL domains: the team's own hosts for `{{link}}` (url, access; sort order is
 * kept but not shown: a new domain goes last). Without the plan's `short-url-domain` the tab says
 * so and offers nothing to add; links then use the app's own host.
 */
export function ShortUrlDomainsPanel() {
  const { t } = useTranslation('short-links');
  const access = useShortUrlDomainAccess();
  const domains = useShortUrlDomains();
  const store = useStoreShortUrlDomain();
  const update = useUpdateShortUrlDomain();
  const remove = useDeleteShortUrlDomain();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string>();
  const [deleting, setDeleting] = useState<TShortUrlDomain>();
  const rows = domains.data?.data ?? [];
  const host = normaliseHost(url);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!host) return setError(translateMessage('short_url_domain_invalid'));
    const sortOrder = rows.reduce((max, d) => Math.max(max, d.sort_order), 0) + 1;
    store.mutate(
      { url: host, access: 'Enabled', sort_order: sortOrder },
      {
        onSuccess: (result) => {
          notifySuccess(translateMessage(result.code) ?? result.message);
          setUrl('');
          setError(undefined);
        },
        onError: (e) =>
          isApiError(e) && e.errors.url
            ? setError(translateMessage(e.errors.url[0]))
            : notifyError(describeApiError(e)),
      },
    );
  };

  const toggle = (row: TShortUrlDomain, enabled: boolean) =>
    update.mutate(
      { id: row.id, access: enabled ? 'Enabled' : 'Disabled' },
      {
        onSuccess: (result) => notifySuccess(translateMessage(result.code) ?? result.message),
        onError: (e) => notifyError(describeApiError(e)),
      },
    );

  if (access.isPending) return <LoadingState rows={3} />;
  if (access.isError) return <ErrorState error={access.error} onRetry={() => access.refetch()} />;

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('intro', { link: '{{link}}' })}
      </Text>
      {access.data.access ? (
        <form onSubmit={submit} noValidate>
          <Group align="flex-start" gap="sm">
            <TextInput
              label={t('url')}
              placeholder="go.example.com"
              value={url}
              onChange={(e) => {
                setUrl(e.currentTarget.value);
                setError(undefined);
              }}
              error={error}
              description={host && linkLength(host) > 17 ? t('longHost', { length: linkLength(host) }) : undefined}
              w={{ base: '100%', xs: 360 }}
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
        </form>
      ) : (
        <Alert color="yellow" icon={<IconInfoCircle size={18} aria-hidden />} role="status">
          {translateMessage('plan_feature_short_url_domain')}
        </Alert>
      )}
      {domains.isPending ? (
        <LoadingState rows={3} />
      ) : domains.isError ? (
        <ErrorState error={domains.error} onRetry={() => domains.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState text={translateMessage('no_short_url_domains') ?? ''} />
      ) : (
        <Table aria-label={t('title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('url')}</Table.Th>
              <Table.Th>{t('access')}</Table.Th>
              <Table.Th>{t('linkLength')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id} style={row.access === 'Enabled' ? undefined : { opacity: 0.55 }}>
                <Table.Td fw={500}>{row.url}</Table.Td>
                <Table.Td>
                  <Group gap="xs">
                    <Switch
                      checked={row.access === 'Enabled'}
                      onChange={(e) => toggle(row, e.currentTarget.checked)}
                      aria-label={t('enableNamed', { url: row.url })}
                    />
                    <Badge variant="light" color={row.access === 'Enabled' ? 'teal' : 'gray'}>
                      {t(`accessValue.${row.access}`)}
                    </Badge>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c={row.link_length > 17 ? 'orange.7' : undefined}>
                    {t('characters', { count: row.link_length })}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('deleteNamed', { url: row.url })}
                    onClick={() => setDeleting(row)}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ConfirmModal
        opened={deleting !== undefined}
        title={t('deleteTitle')}
        message={t('deleteConfirm', { url: deleting?.url ?? '' })}
        confirmLabel={t('delete')}
        danger
        loading={remove.isPending}
        onClose={() => setDeleting(undefined)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: (result) => {
              notifySuccess(translateMessage(result.code) ?? result.message);
              setDeleting(undefined);
            },
            onError: (e) => notifyError(describeApiError(e)),
          })
        }
      />
    </Stack>
  );
}
