import { Alert, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { useBalance } from '../../../features/billing/api/get-balance.ts';
import { TopUpModal } from '../../../features/billing/components/top-up-modal.tsx';
import { translateMessage } from '../../../lib/i18n.ts';

/**
 * Over the lookups' table while the balance holds some of them paused: the spec's message, what to
 * do (top up, then start them again) and the top-up itself for those who may move money.
 */
export function LookupFundsAlert() {
  const { t } = useTranslation('lookups');
  const { data: user } = useCurrentUser();
  const balance = useBalance();
  const [topUp, setTopUp] = useState(false);
  const canTopUp = Boolean(user?.permissions.includes('balance:manage')) && balance.data !== undefined;
  return (
    <Alert color="red" variant="light" title={translateMessage({ code: 'balance_not_enough_lookup' })} role="alert">
      <Group justify="space-between" gap="xs">
        <Text size="sm">{t('notEnoughHint')}</Text>
        {canTopUp && (
          <Button size="compact-sm" variant="light" color="red" onClick={() => setTopUp(true)}>
            {t('topUp')}
          </Button>
        )}
      </Group>
      {balance.data && (
        <TopUpModal
          opened={topUp}
          onClose={() => setTopUp(false)}
          currency={balance.data.balance_currency}
          testPayments={balance.data.test_payments}
        />
      )}
    </Alert>
  );
}
