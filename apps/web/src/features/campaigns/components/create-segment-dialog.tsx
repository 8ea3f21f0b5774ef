import {
  ENGAGEMENT_VALUES,
  SMS_STATUSES,
  type TEngagement,
  type TSmsStatus,
} from '@herald/shared/campaigns/campaign-results';
import { SEGMENT_SOURCE_STATUSES } from '@herald/shared/campaigns/campaign-segments.schemas';
import type { TSegment } from '@herald/shared/segments/segments.schemas';
import { Alert, Button, Group, Modal, Select, Stack, Switch, TextInput } from '@mantine/core';
import { IconFilterPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCreateCampaignSegment } from '../api/create-campaign-segment.ts';
import { useAudienceChoices } from '../api/get-audience-choices.ts';

interface Props {
  campaign: { id: number; name: string; status: string };
  /** Where the new segment is opened. */
  onCreated: (segment: TSegment) => void;
}

/**
 * "Create segment" from a campaign's results (spec section 4, decision 039): for completed, failed
 * and paused campaigns, with an SMS status or an engagement chosen; dynamic or frozen, as an
 * audience or inside one. Absent for other campaigns.
 */
export function CreateSegmentAction({ campaign, onCreated }: Props) {
  const { t } = useTranslation('segments');
  const [opened, setOpened] = useState(false);
  if (!(SEGMENT_SOURCE_STATUSES as readonly string[]).includes(campaign.status)) return null;
  return (
    <>
      <Button variant="default" leftSection={<IconFilterPlus size={16} aria-hidden />} onClick={() => setOpened(true)}>
        {t('results.create.action')}
      </Button>
      {opened && <CreateSegmentDialog campaign={campaign} onClose={() => setOpened(false)} onCreated={onCreated} />}
    </>
  );
}

function CreateSegmentDialog({ campaign, onClose, onCreated }: Props & { onClose: () => void }) {
  const { t } = useTranslation('segments');
  const create = useCreateCampaignSegment();
  const audiences = useAudienceChoices(true);
  const [smsStatus, setSmsStatus] = useState<TSmsStatus | null>(null);
  const [engagement, setEngagement] = useState<TEngagement | null>(null);
  const [name, setName] = useState('');
  const [audienceId, setAudienceId] = useState<string | null>(null);
  const [dynamic, setDynamic] = useState(true);
  const [tried, setTried] = useState(false);

  const what = [
    smsStatus ? t(`results.smsStatus.${smsStatus}`) : null,
    engagement ? t(`results.engagement.${engagement}`) : null,
  ]
    .filter(Boolean)
    .join(', ');
  const suggested = what ? t('results.create.defaultName', { campaign: campaign.name, what }) : '';
  const finalName = (name || suggested).trim();
  const missingFilter = !smsStatus && !engagement;
  const serverError = create.error ? describeApiError(create.error) : null;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (missingFilter || !finalName) return;
    create.mutate(
      {
        campaignId: campaign.id,
        name: finalName.slice(0, 255),
        ignore_new_leads: !dynamic,
        sms_status: smsStatus,
        engagement,
        audience_id: audienceId ? Number(audienceId) : null,
      },
      {
        onSuccess: (segment) => {
          notifySuccess(t('results.create.created'));
          onClose();
          onCreated(segment);
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={t('results.create.title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Select
            label={t('results.create.smsStatus')}
            placeholder={t('results.create.none')}
            data={SMS_STATUSES.map((s) => ({ value: s, label: t(`results.smsStatus.${s}`) }))}
            value={smsStatus}
            onChange={(v) => setSmsStatus(v as TSmsStatus | null)}
            clearable
            data-autofocus
          />
          <Select
            label={t('results.create.engagement')}
            placeholder={t('results.create.none')}
            data={ENGAGEMENT_VALUES.map((v) => ({ value: v, label: t(`results.engagement.${v}`) }))}
            value={engagement}
            onChange={(v) => setEngagement(v as TEngagement | null)}
            clearable
          />
          {tried && missingFilter && (
            <Alert color="red" p="xs" role="alert">
              {t('results.create.needsFilter')}
            </Alert>
          )}
          <TextInput
            label={t('results.create.name')}
            required
            value={name}
            placeholder={suggested}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={255}
            error={tried && !finalName ? translateMessage('name_required') : undefined}
          />
          <Select
            label={t('results.create.audience')}
            placeholder={t('results.create.audienceNone')}
            data={(audiences.data?.data ?? []).map((a) => ({ value: String(a.id), label: a.name }))}
            value={audienceId}
            onChange={setAudienceId}
            clearable
            searchable
          />
          <Switch
            label={t('results.create.dynamic')}
            description={dynamic ? undefined : t('results.create.dynamicHint')}
            checked={dynamic}
            onChange={(e) => setDynamic(e.currentTarget.checked)}
          />
          {serverError && (
            <Alert color="red" p="xs" role="alert">
              {serverError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('results.create.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('results.create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
