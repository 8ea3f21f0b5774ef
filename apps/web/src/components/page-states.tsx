import { Alert, Button, Center, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconInbox } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
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

/**
 * Nothing to show: the spec's empty text (e.g. "No Sources Found"), and where the user has a next
 * step, a line saying what it is and the button that takes it.
 */
export function EmptyState({ text, hint, children }: { text: string; hint?: string; children?: ReactNode }) {
  return (
    <Center py="xl">
      <Stack align="center" gap={6} maw={520}>
        <IconInbox size={32} stroke={1.4} color="var(--mantine-color-dimmed)" aria-hidden />
        <Text c="dimmed">{text}</Text>
        {hint && (
          <Text size="sm" c="dimmed" ta="center">
            {hint}
          </Text>
        )}
        {children && (
          <Group gap="xs" justify="center" mt={4}>
            {children}
          </Group>
        )}
      </Stack>
    </Center>
  );
}
