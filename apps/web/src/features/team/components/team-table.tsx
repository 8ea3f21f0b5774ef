import type { TTeamMember } from '@herald/shared/team/team.schemas';
import { ActionIcon, Badge, Group, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { cellText, ScrollTable } from '../../../components/scroll-table.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useBlockUser } from '../api/block-user.ts';
import { useTeam } from '../api/get-team.ts';

/**
 * Team members with block / unblock; the owner's row and one's own row have no action. A page
 * may add actions of its own to the other members' rows (`memberActions`: the balance buttons).
 */
export function TeamTable({
  currentUserId,
  currency,
  memberActions,
}: {
  currentUserId: number;
  currency: string;
  memberActions?: (member: TTeamMember) => ReactNode;
}) {
  const { t } = useTranslation('team');
  const team = useTeam();
  const block = useBlockUser();
  const [target, setTarget] = useState<TTeamMember | null>(null);

  if (team.isPending) return <LoadingState rows={5} />;
  if (team.isError) return <ErrorState error={team.error} onRetry={() => team.refetch()} />;
  const members = team.data.data;
  if (members.length === 0) return <EmptyState text={t('noMembers')} />;

  const confirm = () => {
    if (!target) return;
    const blocked = !target.blocked;
    block.mutate(
      { id: target.id, blocked },
      {
        onSuccess: () => notifySuccess(t(blocked ? 'blockedDone' : 'unblockedDone', { name: target.name })),
        onSettled: () => setTarget(null),
      },
    );
  };

  return (
    <>
      <ScrollTable minWidth={640} verticalSpacing="sm" stickyLast aria-label={t('tabs.team')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              {t('name')} · {t('email')}
            </Table.Th>
            <Table.Th>
              {t('role')} · {t('status')}
            </Table.Th>
            <Table.Th ta="right">{t('balance')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('common:actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {members.map((member) => {
            const actionable = member.role !== 'team_owner' && member.id !== currentUserId;
            return (
              <Table.Tr key={member.id}>
                <Table.Td>
                  {/* The address under the name, not in a column of its own: the row's actions keep their room. */}
                  <Text size="sm" {...cellText(member.name, { name: true, maxWidth: '16rem' })}>
                    {member.name}
                  </Text>
                  <Text
                    size="xs"
                    c="dimmed"
                    title={member.email}
                    style={{ overflowWrap: 'anywhere', maxWidth: '16rem' }}
                  >
                    {member.email}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{t(`roles.${member.role}`)}</Text>
                  <Badge variant="light" color={member.blocked ? 'red' : 'teal'} style={{ minWidth: 'max-content' }}>
                    {t(member.blocked ? 'blocked' : 'active')}
                  </Badge>
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(member.balance, currency)}
                </Table.Td>
                <Table.Td ta="right">
                  <Group gap={6} justify="flex-end" wrap="nowrap">
                    {member.id !== currentUserId && memberActions?.(member)}
                    {actionable && (
                      // An icon with its word on hover: the row's actions keep their room beside
                      // the balance button in the profile's narrower column.
                      <Tooltip label={t(member.blocked ? 'unblock' : 'block')}>
                        <ActionIcon
                          variant="light"
                          color={member.blocked ? 'teal' : 'red'}
                          onClick={() => setTarget(member)}
                          aria-label={t(member.blocked ? 'unblockUser' : 'blockUser', { name: member.name })}
                        >
                          {member.blocked ? <IconLockOpen size={16} aria-hidden /> : <IconLock size={16} aria-hidden />}
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </ScrollTable>
      <ConfirmModal
        opened={target !== null}
        title={t(target?.blocked ? 'unblock' : 'block')}
        message={t(target?.blocked ? 'unblockConfirm' : 'blockConfirm', { name: target?.name ?? '' })}
        confirmLabel={t(target?.blocked ? 'unblock' : 'block')}
        danger={!target?.blocked}
        loading={block.isPending}
        onConfirm={confirm}
        onClose={() => setTarget(null)}
      />
    </>
  );
}
