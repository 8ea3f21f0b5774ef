import { CAMPAIGN_SKIP_REASONS, type TCampaign } from '@herald/shared/campaigns/campaigns.schemas';
import { Alert, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime, formatMoney, formatNumber } from '../../../lib/format.ts';
import { useCampaignPreview } from '../api/get-campaign-preview.ts';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700}>{value}</Text>
    </div>
  );
}

/** What a start would send: recipients, exclusions by reason, parts, cost against the balance, finish. */
export function CampaignPreviewCard({ campaign }: { campaign: TCampaign }) {
  const { t } = useTranslation('campaigns');
  const preview = useCampaignPreview(campaign.id);
  const p = preview.data;
  return (
    <Paper withBorder radius="md" p="md" data-testid="campaign-preview">
      <Title order={4} mb="sm">
        {t('preview')}
      </Title>
      {!p ? (
        <Skeleton height={80} />
      ) : (
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
            <Figure label={t('previewAudience')} value={formatNumber(p.audience)} />
            <Figure label={t('previewRecipients')} value={formatNumber(p.recipients)} />
            <Figure label={t('previewParts')} value={formatNumber(p.cost.parts_total)} />
            <Figure label={t('previewFree')} value={formatNumber(p.cost.free_parts)} />
            <Figure label={t('previewMoney')} value={formatMoney(p.cost.money, p.cost.currency)} />
            <Figure label={t('previewBalance')} value={formatMoney(p.cost.balance, p.cost.currency)} />
            <Figure label={t('previewPerMinute')} value={formatNumber(p.finish.per_minute)} />
            <Figure
              label={t('previewFinish')}
              value={p.finish.finishes_at ? formatDateTime(p.finish.finishes_at) : '—'}
            />
          </SimpleGrid>
          <Group gap="md">
            {CAMPAIGN_SKIP_REASONS.filter((r) => (p.skipped[r] ?? 0) > 0).map((r) => (
              <Text key={r} size="sm" c="dimmed">
                {t(`skipped.${r}`)}: {formatNumber(p.skipped[r] ?? 0)}
              </Text>
            ))}
          </Group>
          {p.steps.map((s) => (
            <Text key={s.step_id} size="sm">
              {t('step', { position: s.position })}:{' '}
              {s.type === 'lookup'
                ? t('lookupStep.preview', {
                    count: s.recipients,
                    phones: formatNumber(s.recipients),
                    money: formatMoney(s.recipients * p.cost.lookup_price, p.cost.currency),
                  })
                : `${formatNumber(s.recipients)} × ${t('chars', { length: s.length, parts: s.parts, encoding: s.encoding })}`}
            </Text>
          ))}
          {!p.cost.first_step_payable && (
            <Alert color="red" title={t('notEnoughBalance')}>
              <Button component={Link} to="/profile/subscriptions" size="xs" variant="light" color="red">
                {t('topUp')}
              </Button>
            </Alert>
          )}
        </Stack>
      )}
    </Paper>
  );
}
