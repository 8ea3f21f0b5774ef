import { Button } from '@mantine/core';
import { IconPhoneCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { useBalance } from '../../../features/billing/api/get-balance.ts';
import { TopUpModal } from '../../../features/billing/components/top-up-modal.tsx';
import { LookupStartModal } from '../../../features/lookups/components/lookup-start-modal.tsx';

/**
 * Beside Delete on `/sources` and a source's lists: a lookup of the selected rows, through the start
 * dialog (phones, fresh ones free, price against the balance), with the balance's top-up at hand
 * when the money is short. Shown only to those who may run lookups.
 */
export function LookupStartButton({
  kind,
  rows,
}: {
  kind: 'sources' | 'lists';
  rows: Array<{ id: number; name: string }>;
}) {
  const { t } = useTranslation('lookups');
  const { data: user } = useCurrentUser();
  const balance = useBalance();
  const [open, setOpen] = useState(false);
  const [topUp, setTopUp] = useState(false);
  if (!user?.permissions.includes('lookups:manage')) return null;
  const canTopUp = user.permissions.includes('balance:manage') && balance.data !== undefined;
  return (
    <>
      <Button variant="light" leftSection={<IconPhoneCheck size={16} aria-hidden />} onClick={() => setOpen(true)}>
        {t('lookupSelected', { count: rows.length })}
      </Button>
      <LookupStartModal
        target={open ? { kind, ids: rows.map((r) => r.id), names: rows.map((r) => r.name) } : null}
        onClose={() => setOpen(false)}
        onTopUp={canTopUp ? () => setTopUp(true) : undefined}
      />
      {balance.data && (
        <TopUpModal
          opened={topUp}
          onClose={() => setTopUp(false)}
          currency={balance.data.balance_currency}
          testPayments={balance.data.test_payments}
        />
      )}
    </>
  );
}
