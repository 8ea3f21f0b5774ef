import { Alert, Button, Center, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconInbox } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../lib/describe-api-error.ts';

/** Placeholder rows while a page or table loads. */
export function LoadingState({ rows = 4 }: { rows?: number }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" aria-busy="true" aria-label={t('loading')}>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <Skeleton key={i} height={i === 0 ? 28 : 20} radius="sm" />
      ))}
    </Stack>
  );
}

/** A failed read, with a way to try again. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" icon={<IconAlertTriangle size={18} />} title={t('loadFailed')} role="alert">
      <Group justify="space-between" align="center">
        <Text size="sm">{describeApiError(error)}</Text>
        {onRetry && (
          <Button size="xs" variant="light" color="red" onClick={onRetry}>
            {t('retry')}
          </Button>
        )}
      </Group>
    </Alert>
  );
}

/** Nothing to show: the spec's empty text (e.g. "No Sources Found"). */
export function EmptyState({ text }: { text: string }) {
  return (
    <Center py="xl">
      <Stack align="center" gap={6}>
        <IconInbox size={32} stroke={1.4} color="var(--mantine-color-dimmed)" aria-hidden />
        <Text c="dimmed">{text}</Text>
      </Stack>
    </Center>
  );
}
