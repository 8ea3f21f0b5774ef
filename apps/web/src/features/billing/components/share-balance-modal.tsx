import { parseAmount } from '@herald/shared/billing/billing.schemas';
import type { TTeamMember } from '@herald/shared/team/team.schemas';
import { Button, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form-alert.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { formatMoney } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { amountRefusal } from '../amount-refusal.ts';
import { useShareBalance } from '../api/share-balance.ts';

/**
 * Share balance with a member: an amount from the sharer's own balance and, for members who are
 * not admins, auto-refill (spec section 6): their balance is topped up from the sharer's when a
 * charge finds it short.
 */
export function ShareBalanceModal({
  member,
  ownBalance,
  currency,
  onClose,
}: {
  member: TTeamMember | null;
  ownBalance: number;
  currency: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('billing');
  const share = useShareBalance();
  const [amount, setAmount] = useState('');
  const [autoRefill, setAutoRefill] = useState<boolean | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [rest, setRest] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const refill = autoRefill ?? member?.balance_auto_refill ?? false;

  const close = () => {
    setAmount('');
    setAutoRefill(null);
    setError(undefined);
    setRest([]);
    onClose();
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!member) return;
    setRest([]);
    if (parseAmount(amount) === null) {
      const refused = amountRefusal();
      setError(refused.field);
      setRest(refused.alert);
      return;
    }
    setBusy(true);
    await delay(SUBMIT_DELAY_MS);
    try {
      await share.mutateAsync({
        amount: amount.trim(),
        memberId: member.id,
        autoRefill: member.role === 'team_admin' ? false : refill,
      });
      notifySuccess(t('share.success'));
      close();
    } catch (failure) {
      const field = isApiError(failure) ? failure.errors.amount?.[0] : undefined;
      if (field) {
        const refused = amountRefusal(field);
        setError(refused.field);
        setRest(refused.alert);
      } else setRest([describeApiError(failure)]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={member !== null} onClose={close} title={t('share.title', { name: member?.name ?? '' })} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <FormAlert messages={rest} />
          <Text size="sm" c="dimmed">
            {t('share.available', { value: formatMoney(ownBalance, currency) })}
          </Text>
          <TextInput
            label={t('share.amount', { currency })}
            inputMode="decimal"
            placeholder="100.00"
            required
            data-autofocus
            value={amount}
            onChange={(e) => {
              setAmount(e.currentTarget.value);
              setError(undefined);
            }}
            error={error}
          />
          {member && member.role !== 'team_admin' && (
            <Checkbox
              label={t('share.autoRefill')}
              description={t('share.autoRefillHint')}
              checked={refill}
              onChange={(e) => setAutoRefill(e.currentTarget.checked)}
            />
          )}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={busy}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('share.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
