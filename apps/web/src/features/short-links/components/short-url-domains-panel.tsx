import { domainRefusal, linkLength, normaliseHost } from '@herald/shared/short-links/short-link-code';
import type { TShortUrlDomain } from '@herald/shared/short-links/short-links.schemas';
import { ActionIcon, Alert, Badge, Button, Group, Paper, Stack, Switch, Text, TextInput } from '@mantine/core';
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
import { useVerifyShortUrlDomain } from '../api/verify-short-url-domain.ts';
import { DomainVerificationSteps } from './domain-verification-steps.tsx';

/** What the domain's status badge says: verified, waiting, or waiting after it stopped proving. */
function statusOf(row: TShortUrlDomain): { key: 'verified' | 'waiting' | 'lost'; color: string } {
  if (row.verification.status === 'verified') return { key: 'verified', color: 'teal' };
  return row.verification.lost_at ? { key: 'lost', color: 'red' } : { key: 'waiting', color: 'yellow' };
}

/**
 * Settings → Short URL domains: the team's own hosts for `{{link}}` (url, access; sort order is
 * kept but not shown: a new domain goes last). A domain waits for verification, with its steps and
 * "Verify now", until it proves it is the team's (decision 028). Without the plan's
 * `short-url-domain` the tab says so and offers nothing to add; links then use the app's own host.
 */
export function ShortUrlDomainsPanel() {
  const { t } = useTranslation('short-links');
  const access = useShortUrlDomainAccess();
  const domains = useShortUrlDomains();
  const store = useStoreShortUrlDomain();
  const update = useUpdateShortUrlDomain();
  const remove = useDeleteShortUrlDomain();
  const verify = useVerifyShortUrlDomain();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string>();
  const [deleting, setDeleting] = useState<TShortUrlDomain>();
  const rows = domains.data?.data ?? [];
  const host = normaliseHost(url);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!host) return setError(translateMessage(domainRefusal(url) ?? 'short_url_domain_invalid'));
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

  const verifyNow = (row: TShortUrlDomain) =>
    verify.mutate(row.id, {
      onSuccess: (result) => notifySuccess(translateMessage(result.code) ?? result.message),
      onError: (e) => notifyError(describeApiError(e)),
    });

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
        <Stack component="ul" gap="sm" p={0} m={0} aria-label={t('title')} style={{ listStyle: 'none' }}>
          {rows.map((row) => {
            const status = statusOf(row);
            return (
              <Paper component="li" key={row.id} withBorder p="md" radius="md" aria-label={row.url}>
                <Stack gap="sm">
                  <Group justify="space-between" align="center" gap="sm">
                    <Group gap="sm" miw={0}>
                      <Text fw={600} style={{ wordBreak: 'break-all' }}>
                        {row.url}
                      </Text>
                      <Badge variant="light" color={status.color}>
                        {t(`status.${status.key}`)}
                      </Badge>
                    </Group>
                    <Group gap="md" wrap="nowrap">
                      <Text size="sm" c={row.link_length > 17 ? 'orange.7' : 'dimmed'}>
                        {t('characters', { count: row.link_length })}
                      </Text>
                      <Switch
                        checked={row.access === 'Enabled'}
                        onChange={(e) => toggle(row, e.currentTarget.checked)}
                        aria-label={t('enableNamed', { url: row.url })}
                        label={t(`accessValue.${row.access}`)}
                      />
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('deleteNamed', { url: row.url })}
                        onClick={() => setDeleting(row)}
                      >
                        <IconTrash size={16} aria-hidden />
                      </ActionIcon>
                    </Group>
                  </Group>
                  {row.verification.status === 'waiting' && (
                    <DomainVerificationSteps
                      domain={row}
                      verifying={verify.isPending && verify.variables === row.id}
                      onVerify={() => verifyNow(row)}
                    />
                  )}
                </Stack>
              </Paper>
            );
          })}
        </Stack>
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
