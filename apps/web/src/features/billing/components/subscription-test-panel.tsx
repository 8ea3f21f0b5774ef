import { SUBSCRIPTION_TEST_AMOUNT, type TSubscriptionTestRequest } from '@herald/shared/plans/plans.schemas';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { useTestSubscription } from '../api/test-subscription.ts';

type Outcome = { ok: boolean; text: string };

/**
 * The old profile's test tab: send 10 SMS or import 10 contacts against the plan's limits
 * (`POST /subscriptions/test`), showing the answer's message or the refusal.
 */
export function SubscriptionTestPanel() {
  const { t } = useTranslation('billing');
  const test = useTestSubscription();
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const run = async (key: TSubscriptionTestRequest['key']) => {
    setOutcome(null);
    try {
      const answer = await test.mutateAsync({ key });
      setOutcome({ ok: true, text: translateMessage(answer.code) ?? answer.message });
    } catch (error) {
      setOutcome({ ok: false, text: describeApiError(error) });
    }
  };

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('oldProfile.testIntro', { count: SUBSCRIPTION_TEST_AMOUNT })}
      </Text>
      <Group>
        <Button
          onClick={() => run('send-sms')}
          loading={test.isPending && test.variables?.key === 'send-sms'}
          disabled={test.isPending}
        >
          {t('oldProfile.sendSms', { count: SUBSCRIPTION_TEST_AMOUNT })}
        </Button>
        <Button
          onClick={() => run('import-contacts')}
          loading={test.isPending && test.variables?.key === 'import-contacts'}
          disabled={test.isPending}
        >
          {t('oldProfile.importContacts', { count: SUBSCRIPTION_TEST_AMOUNT })}
        </Button>
      </Group>
      {outcome && (
        <Alert color={outcome.ok ? 'teal' : 'red'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.text}
        </Alert>
      )}
    </Stack>
  );
}
