import { Button, Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useReviewAlphaName, useReviewQueue } from '../api/review-alpha-names.ts';

/** The installation admins' queue: every team's names on review, approve or reject. */
export function ReviewQueue() {
  const { t } = useTranslation('alpha-names');
  const queue = useReviewQueue(true);
  const review = useReviewAlphaName();
  const rows = queue.data?.data ?? [];

  const decide = (id: number, decision: 'approve' | 'reject') =>
    review.mutate(
      { id, decision },
      {
        onSuccess: () =>
          notifySuccess(translateMessage(decision === 'approve' ? 'alpha_name_approved' : 'alpha_name_rejected') ?? ''),
        onError: (e) => notifyError(describeApiError(e)),
      },
    );

  if (queue.isPending) return <LoadingState rows={3} />;
  if (queue.isError) return <ErrorState error={queue.error} onRetry={() => queue.refetch()} />;
  if (rows.length === 0) return <EmptyState text={t('admin.empty')} />;
  return (
    <Table aria-label={t('admin.title')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('name')}</Table.Th>
          <Table.Th>{t('admin.team')}</Table.Th>
          <Table.Th>{t('createdAt')}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.id}>
            <Table.Td fw={500}>{row.name}</Table.Td>
            <Table.Td>{row.team_name}</Table.Td>
            <Table.Td>
              <Text size="sm" c="dimmed">
                {formatDateTime(row.created_at)}
              </Text>
            </Table.Td>
            <Table.Td>
              <Group gap="xs" justify="flex-end">
                <Button
                  size="compact-sm"
                  color="teal"
                  aria-label={t('admin.approveNamed', { name: row.name })}
                  onClick={() => decide(row.id, 'approve')}
                >
                  {t('admin.approve')}
                </Button>
                <Button
                  size="compact-sm"
                  variant="light"
                  color="red"
                  aria-label={t('admin.rejectNamed', { name: row.name })}
                  onClick={() => decide(row.id, 'reject')}
                >
                  {t('admin.reject')}
                </Button>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
