import { CAMPAIGN_CAP_MAX_HOURS } from '@herald/shared/campaigns/campaign-live.schemas';
import { Button, Group, NumberInput, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCampaignFrequencyCap } from '../api/get-campaign-frequency-cap.ts';
import { useSaveCampaignFrequencyCap } from '../api/save-campaign-frequency-cap.ts';

/**
 * The team's frequency cap across campaigns (decision 034): at most N campaign messages a phone in
 * H hours; empty N is no cap, the default.
 */
export function FrequencyCapForm({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('settings');
  const current = useCampaignFrequencyCap();
  const save = useSaveCampaignFrequencyCap();
  const [messages, setMessages] = useState<number | ''>('');
  const [hours, setHours] = useState<number | ''>(24);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!current.data) return;
    setMessages(current.data.messages ?? '');
    setHours(current.data.hours);
  }, [current.data]);

  if (current.isPending) return <LoadingState rows={2} />;
  if (current.isError) return <ErrorState error={current.error} onRetry={() => current.refetch()} />;

  const unchanged = (current.data.messages ?? '') === messages && current.data.hours === hours;
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (hours === '') return;
    setError(undefined);
    setBusy(true);
    await delay(SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ messages: messages === '' ? null : messages, hours });
      notifySuccess(t('frequencyCap.saved'));
    } catch (e) {
      if (isApiError(e)) setError(translateMessage(e.errors.messages?.[0] ?? e.errors.hours?.[0] ?? e.message));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={640} gap="xs">
        <Title order={5}>{t('frequencyCap.title')}</Title>
        <Text size="sm">{t('frequencyCap.intro')}</Text>
        <Group align="flex-end">
          <NumberInput
            label={t('frequencyCap.messages')}
            placeholder={t('frequencyCap.messagesHint')}
            value={messages}
            onChange={(v) => setMessages(typeof v === 'number' ? v : '')}
            min={1}
            max={1000}
            allowDecimal={false}
            allowNegative={false}
            readOnly={!canEdit}
            error={error}
            w={200}
          />
          <NumberInput
            label={t('frequencyCap.hours')}
            value={hours}
            onChange={(v) => setHours(typeof v === 'number' ? v : '')}
            min={1}
            max={CAMPAIGN_CAP_MAX_HOURS}
            allowDecimal={false}
            allowNegative={false}
            readOnly={!canEdit}
            w={160}
          />
          {canEdit && (
            <Button type="submit" loading={busy} disabled={unchanged || hours === ''}>
              {t('common:save')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
