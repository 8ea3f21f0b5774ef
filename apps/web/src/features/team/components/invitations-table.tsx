import type { TInvitation } from '@herald/shared/team/team.schemas';
import { ActionIcon, Group, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconMailForward, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { cellText, ScrollTable } from '../../../components/scroll-table.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useDeleteInvitation } from '../api/delete-invitation.ts';
import { useInvitations } from '../api/get-invitations.ts';
import { useResendInvitation } from '../api/resend-invitation.ts';
import { EditInvitationModal } from './edit-invitation-modal.tsx';

/** Pending invitations: edit the role, resend the mail, or remove. */
export function InvitationsTable() {
  const { t } = useTranslation('team');
  const invitations = useInvitations();
  const resend = useResendInvitation();
  const remove = useDeleteInvitation();
  const [editing, setEditing] = useState<TInvitation | null>(null);
  const [deleting, setDeleting] = useState<TInvitation | null>(null);

  if (invitations.isPending) return <LoadingState rows={4} />;
  if (invitations.isError) return <ErrorState error={invitations.error} onRetry={() => invitations.refetch()} />;
  const list = invitations.data.data;
  if (list.length === 0) return <EmptyState text={t('noInvitations')} />;

  const onResend = (invitation: TInvitation) =>
    resend.mutate(invitation.id, { onSuccess: () => notifySuccess(t('successResend')) });

  const onDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => notifySuccess(t('invitationDeleted')),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <>
      <ScrollTable minWidth={560} verticalSpacing="sm" aria-label={t('tabs.invites')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('email')}</Table.Th>
            <Table.Th>{t('role')}</Table.Th>
            <Table.Th>{t('invitedAt')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('common:actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.map((invitation) => (
            <Table.Tr key={invitation.id}>
              <Table.Td>
                <Text size="sm" {...cellText(invitation.email, { nowrap: true })}>
                  {invitation.email}
                </Text>
              </Table.Td>
              <Table.Td>{t(`roles.${invitation.role}`)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(invitation.created_at)}</Table.Td>
              <Table.Td>
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <Tooltip label={t('editRole')}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('editInvitationOf', { email: invitation.email })}
                      onClick={() => setEditing(invitation)}
                    >
                      <IconPencil size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t('resend')}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('resendInvitationOf', { email: invitation.email })}
                      loading={resend.isPending && resend.variables === invitation.id}
                      onClick={() => onResend(invitation)}
                    >
                      <IconMailForward size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t('common:delete')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('deleteInvitationOf', { email: invitation.email })}
                      onClick={() => setDeleting(invitation)}
                    >
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </ScrollTable>
      <EditInvitationModal invitation={editing} onClose={() => setEditing(null)} />
      <ConfirmModal
        opened={deleting !== null}
        title={t('deleteInvitation')}
        message={t('deleteInvitationConfirm', { email: deleting?.email ?? '' })}
        confirmLabel={t('common:delete')}
        danger
        loading={remove.isPending}
        onConfirm={onDelete}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
