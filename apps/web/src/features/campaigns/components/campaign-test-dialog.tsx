import { canTestCampaign } from '@herald/shared/campaigns/campaign-moves';
import type { TCampaign } from '@herald/shared/campaigns/campaigns.schemas';
import type { TSentMessage } from '@herald/shared/messages/messages.schemas';
import { Alert, Badge, Button, Group, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { useTestCampaign } from '../api/test-campaign.ts';

/**
 * "Test campaign" (spec sections 2 and 7): a phone, then every step at once to it, rendered for a
 * lead of the audience; the dialog shows the messages the server answers (text, parts, status).
 * Disabled where the server would refuse (active, completed, failed: `canTestCampaign`).
 */
export function CampaignTestDialog({ campaign }: { campaign: TCampaign }) {
  const { t, i18n } = useTranslation('campaigns');
  const [opened, setOpened] = useState(false);
  const [phone, setPhone] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState<{ message: string; data: TSentMessage[] } | null>(null);
  const send = useTestCampaign();
  // One key per press of "Send test": a retry of that request sends nothing more.
  const key = useRef(crypto.randomUUID());
  const rule = canTestCampaign({ status: campaign.status, started: campaign.started_at !== null });

  const open = () => {
    setPhoneError(null);
    setFailure(null);
    setSent(null);
    key.current = crypto.randomUUID();
    setOpened(true);
  };
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setPhoneError(null);
    setFailure(null);
    setSent(null);
    if (!phone.trim()) return setPhoneError(t('test.phoneRequired'));
    send.mutate(
      { id: campaign.id, body: { phone: phone.trim() }, key: key.current },
      {
        onSuccess: (answer) => {
          key.current = crypto.randomUUID();
          setSent({ message: translateMessage({ code: answer.code }) ?? answer.message, data: answer.data });
        },
        onError: (error) => {
          key.current = crypto.randomUUID();
          const field = isApiError(error) ? error.errors.phone?.[0] : undefined;
          if (field) setPhoneError(translateMessage(field) ?? field.code);
          else setFailure(describeApiError(error));
        },
      },
    );
  };
  const number = new Intl.NumberFormat(i18n.language);

  return (
    <>
      <Button
        variant="default"
        onClick={open}
        disabled={!rule.ok}
        title={rule.ok ? undefined : translateMessage({ code: rule.code })}
      >
        {t('test.action')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('test.title')} size="lg" centered>
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm" c="dimmed">
              {t('test.hint')}
            </Text>
            {failure && (
              <Alert color="red" role="alert">
                {failure}
              </Alert>
            )}
            <TextInput
              label={t('test.phone')}
              placeholder="+380501234567"
              type="tel"
              autoComplete="tel"
              value={phone}
              onChange={(e) => setPhone(e.currentTarget.value)}
              error={phoneError}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpened(false)}>
                {t('test.close')}
              </Button>
              <Button type="submit" loading={send.isPending}>
                {t('test.send')}
              </Button>
            </Group>
            {sent && (
              <Stack gap="xs" aria-label={t('test.sentTitle')} role="region">
                <Alert color={sent.data.every((m) => m.state === 'submitted') ? 'green' : 'yellow'} role="status">
                  {sent.message}
                </Alert>
                {sent.data.map((m, i) => (
                  <Paper key={m.id} withBorder p="sm" radius="sm">
                    <Group justify="space-between" mb={4} gap="xs">
                      <Text size="sm" fw={600}>
                        {t('test.step', { position: i + 1 })}
                      </Text>
                      <Group gap="xs">
                        <Text size="xs" c="dimmed">
                          {t('test.parts', { parts: number.format(m.parts) })}
                        </Text>
                        <Badge
                          variant="light"
                          color={m.state === 'submitted' ? 'green' : m.state === 'failed' ? 'red' : 'yellow'}
                        >
                          {t(`test.state.${m.state}`)}
                        </Badge>
                      </Group>
                    </Group>
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                      {m.text}
                    </Text>
                  </Paper>
                ))}
              </Stack>
            )}
          </Stack>
        </form>
      </Modal>
    </>
  );
}
