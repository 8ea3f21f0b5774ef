import { canEditAudience } from '@herald/shared/campaigns/campaign-moves';
import {
  CAMPAIGN_AUDIENCE_KINDS,
  type TCampaign,
  type TCampaignAudienceKind,
} from '@herald/shared/campaigns/campaigns.schemas';
import { ActionIcon, Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { useAddCampaignAudiences, useCampaignAudiences, useRemoveCampaignAudience } from '../api/campaign-audiences.ts';

export type AudienceOptions = Record<TCampaignAudienceKind, { value: string; label: string }[]>;

/** The segments, sources and lists the campaign sends to; changed only in draft. */
export function CampaignAudience({ campaign, options }: { campaign: TCampaign; options: AudienceOptions }) {
  const { t } = useTranslation('campaigns');
  const audiences = useCampaignAudiences(campaign.id);
  const add = useAddCampaignAudiences();
  const remove = useRemoveCampaignAudience();
  const [kind, setKind] = useState<TCampaignAudienceKind>('segment');
  const [ref, setRef] = useState<string | null>(null);
  const rule = canEditAudience({ status: campaign.status, started: campaign.started_at !== null });
  const taken = new Set((audiences.data ?? []).filter((a) => a.kind === kind).map((a) => String(a.ref_id)));

  return (
    <Stack gap="xs">
      {(audiences.data ?? []).length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('noAudience')}
        </Text>
      ) : (
        <Group gap="xs">
          {audiences.data?.map((a) => (
            <Badge
              key={a.id}
              variant="light"
              size="lg"
              tt="none"
              rightSection={
                rule.ok && (
                  <ActionIcon
                    size="xs"
                    variant="transparent"
                    aria-label={t('removeAudience', { name: a.name })}
                    onClick={() => remove.mutate({ campaignId: campaign.id, audienceId: a.id })}
                  >
                    <IconX size={12} aria-hidden />
                  </ActionIcon>
                )
              }
            >
              {t(`audienceKind.${a.kind}`)}: {a.name}
              {a.leads_count !== null && ` · ${t('leadsCount', { count: formatNumber(a.leads_count) })}`}
            </Badge>
          ))}
        </Group>
      )}
      {rule.ok ? (
        <Group gap="xs" align="flex-end">
          <Select
            w={140}
            aria-label={t('audience')}
            data={CAMPAIGN_AUDIENCE_KINDS.map((k) => ({ value: k, label: t(`audienceKind.${k}`) }))}
            value={kind}
            onChange={(v) => {
              if (v) setKind(v as TCampaignAudienceKind);
              setRef(null);
            }}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            style={{ flex: 1, minWidth: 160 }}
            aria-label={t(`audienceKind.${kind}`)}
            data={options[kind].filter((o) => !taken.has(o.value))}
            value={ref}
            onChange={setRef}
            searchable
            comboboxProps={{ withinPortal: true }}
          />
          <Button
            variant="light"
            disabled={ref === null}
            loading={add.isPending}
            onClick={async () => {
              if (ref === null) return;
              await add.mutateAsync({ campaignId: campaign.id, kind, ref_ids: [Number(ref)] });
              setRef(null);
            }}
          >
            {t('addAudience')}
          </Button>
        </Group>
      ) : (
        <Text size="xs" c="dimmed">
          {translateMessage({ code: rule.code })}
        </Text>
      )}
    </Stack>
  );
}
