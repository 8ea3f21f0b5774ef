import type { TCampaignStatus } from '@herald/shared/campaigns/campaign-moves';
import { CAMPAIGNS_PAGE_SIZE, type TCampaign } from '@herald/shared/campaigns/campaigns.schemas';
import { Button, Checkbox, Group, Menu, Paper, Stack, Title } from '@mantine/core';
import { IconColumns, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { EmptyState } from '../../../components/page-states.tsx';
import { SearchInput } from '../../../components/search-input.tsx';
import { StatCards } from '../../../components/stat-cards.tsx';
import { useCreateCampaign } from '../../../features/campaigns/api/create-campaign.ts';
import { useDeleteCampaigns } from '../../../features/campaigns/api/delete-campaigns.ts';
import { useDuplicateCampaign } from '../../../features/campaigns/api/duplicate-campaign.ts';
import { useCampaignAggregations } from '../../../features/campaigns/api/get-campaign-aggregations.ts';
import { useCampaignConfig } from '../../../features/campaigns/api/get-campaign-config.ts';
import { useCampaigns } from '../../../features/campaigns/api/get-campaigns.ts';
import { useSetCampaignStatus } from '../../../features/campaigns/api/set-campaign-status.ts';
import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { PlanRequiredModal } from '../../../features/billing/components/plan-required-modal.tsx';
import { CAMPAIGN_COLUMNS, CampaignsTable } from '../../../features/campaigns/components/campaigns-table.tsx';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { useSelection } from '../../../lib/use-selection.ts';
import { useTableState } from '../../../lib/use-table-state.ts';

/** `/campaigns`: how many in each status, then the team's campaigns, 15 a page. */
export function CampaignsPage() {
  const { t } = useTranslation('campaigns');
  const navigate = useNavigate();
  // Created is hidden until asked for: with the results and cost the list must still fit a laptop.
  const table = useTableState('campaigns', { field: 'created_at', dir: 'desc' }, CAMPAIGNS_PAGE_SIZE, ['created_at']);
  const campaigns = useCampaigns(table.query);
  const aggregations = useCampaignAggregations();
  const config = useCampaignConfig();
  const create = useCreateCampaign();
  const remove = useDeleteCampaigns();
  const duplicate = useDuplicateCampaign();
  // An owner whose team has no plan is shown the way to one (decision 035).
  const { data: user } = useCurrentUser();
  const owner = user?.role === 'team_owner';
  const [planPrompt, setPlanPrompt] = useState(false);
  const status = useSetCampaignStatus({
    onPlanMissing: () => {
      if (owner) setPlanPrompt(true);
      return owner;
    },
  });
  const rows = campaigns.data?.data ?? [];
  const selection = useSelection(rows.map((r) => r.id));
  const [deleting, setDeleting] = useState<TCampaign[]>([]);
  const manual = config.data?.manualStatuses ?? [];
  const picked = rows.filter((r) => selection.selected.includes(r.id));

  const createOne = async () => {
    const campaign = await create.mutateAsync({});
    navigate(`/campaigns/${campaign.id}`);
  };
  const changeStatus = async (targets: TCampaign[], to: TCampaignStatus) => {
    const result = await status.mutateAsync({ ids: targets.map((c) => c.id), status: to });
    const noPlan = (r: (typeof result.refused)[number]) => owner && r.reason.code === 'subscription_required';
    if (result.refused.some(noPlan)) setPlanPrompt(true);
    for (const r of result.refused.filter((r) => !noPlan(r))) notifyRefused(r.id, translateMessage(r.reason) ?? '');
    if (result.done) notifySuccess(t('statusChanged', { count: result.done, status: t(`status.${to}`) }));
    selection.clear();
  };
  const notifyRefused = (id: number, why: string) => notifyError(rows.find((r) => r.id === id)?.name ?? `#${id}`, why);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('title')}</Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} loading={create.isPending} onClick={createOne}>
          {t('create')}
        </Button>
      </Group>
      <StatCards
        loading={aggregations.isPending}
        items={[
          { label: t('total'), value: aggregations.data?.total },
          ...(['draft', 'scheduled', 'active', 'completed'] as const).map((s) => ({
            label: t(`status.${s}`),
            value: aggregations.data ? (aggregations.data.statuses[s] ?? 0) : undefined,
          })),
        ]}
      />
      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" mb="sm" mih={36} gap="xs">
          <SearchInput value={table.search} onChange={table.setSearch} />
          <Group gap="xs">
            {picked.length > 0 && manual.length > 0 && (
              <Menu withinPortal>
                <Menu.Target>
                  <Button variant="light">{t('changeStatusSelected', { count: picked.length })}</Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {manual.map((to) => (
                    <Menu.Item key={to} onClick={() => changeStatus(picked, to)}>
                      {t(`move.${to}`)}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
            )}
            {picked.length > 0 && (
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} aria-hidden />}
                onClick={() => setDeleting(picked)}
              >
                {t('deleteSelected', { count: picked.length })}
              </Button>
            )}
            <Menu withinPortal closeOnItemClick={false}>
              <Menu.Target>
                <Button variant="default" leftSection={<IconColumns size={16} aria-hidden />}>
                  {t('columns')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {CAMPAIGN_COLUMNS.map((c) => (
                  <Menu.Item key={c} onClick={() => table.toggleHidden(c)}>
                    <Checkbox
                      size="xs"
                      readOnly
                      checked={!table.hidden.includes(c)}
                      label={t(`column.${c}`)}
                      tabIndex={-1}
                    />
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
        <CampaignsTable
          query={campaigns}
          table={table}
          selection={selection}
          manualStatuses={manual}
          currency={user?.balance_currency}
          empty={
            <EmptyState text={t('empty')} hint={table.search ? undefined : t('emptyHint')}>
              {!table.search && (
                <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={createOne}>
                  {t('create')}
                </Button>
              )}
            </EmptyState>
          }
          onStatus={changeStatus}
          onDuplicate={async (row) => {
            const copy = await duplicate.mutateAsync(row.id);
            notifySuccess(t('duplicated', { name: copy.name }));
            navigate(`/campaigns/${copy.id}`);
          }}
          onDelete={setDeleting}
        />
      </Paper>
      <ConfirmModal
        opened={deleting.length > 0}
        title={t('deleteTitle', { count: deleting.length })}
        message={
          deleting.length === 1
            ? t('deleteOne', { name: deleting[0]?.name })
            : t('deleteMany', { count: deleting.length })
        }
        confirmLabel={t('common:delete')}
        danger
        loading={remove.isPending}
        onClose={() => setDeleting([])}
        onConfirm={async () => {
          const result = await remove.mutateAsync(deleting.map((c) => c.id));
          for (const r of result?.refused ?? []) notifyRefused(r.id, translateMessage(r.reason) ?? '');
          if (!result || result.done) notifySuccess(t('deleted', { count: result ? result.done : 1 }));
          selection.clear();
          setDeleting([]);
        }}
      />
      <PlanRequiredModal opened={planPrompt} onClose={() => setPlanPrompt(false)} />
    </Stack>
  );
}
