import { parseAmount } from '@herald/shared/billing/billing.schemas';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form-alert.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { useTopUp } from '../api/top-up.ts';
import { amountRefusal } from '../amount-refusal.ts';
import { submitCheckout } from '../checkout.ts';

/**
 * Top up balance: an amount with up to 2 decimals (spec section 5), then the hosted checkout. The
 * balance changes when the payment's callback arrives, and the header hears it (`BalanceChanged`).
 */
export function TopUpModal({
  opened,
  onClose,
  currency,
  testPayments = false,
}: {
  opened: boolean;
  onClose: () => void;
  currency: string;
  /** The installation's checkout takes test payments (no real money): said before the checkout. */
  testPayments?: boolean;
}) {
  const { t } = useTranslation('billing');
  const topUp = useTopUp();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [rest, setRest] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setAmount('');
    setError(undefined);
    setRest([]);
    onClose();
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
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
      const checkout = await topUp.mutateAsync({ amount: amount.trim(), redirect_url: window.location.href });
      // The page is left for the checkout; the button stays busy until it goes.
      submitCheckout(checkout);
    } catch (failure) {
      setBusy(false);
      const field = isApiError(failure) ? failure.errors.amount?.[0] : undefined;
      if (field) {
        const refused = amountRefusal(field);
        setError(refused.field);
        setRest(refused.alert);
      } else setRest([describeApiError(failure)]);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={t('topUp.title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <FormAlert messages={rest} />
          {testPayments && (
            <Alert color="yellow" variant="light" p="xs" data-testid="top-up-test-payments">
              {t('topUp.testPayments')}
            </Alert>
          )}
          <TextInput
            label={t('topUp.amount', { currency })}
            inputMode="decimal"
            placeholder="100.00"
            required
            data-autofocus
            value={amount}
            onChange={(e) => {
              setAmount(e.currentTarget.value);
              setError(undefined);
            }}
            onBlur={() =>
              setError(amount && parseAmount(amount) === null ? translateMessage('amount_invalid') : undefined)
            }
            error={error}
          />
          <Text size="sm" c="dimmed">
            {t('topUp.hint')}
          </Text>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={busy}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('topUp.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
