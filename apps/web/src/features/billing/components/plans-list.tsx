import type { TActiveSubscription, TPlan } from '@herald/shared/plans/plans.schemas';
import { SimpleGrid, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { formatMoney } from '../../../lib/format.ts';
import { useBalance } from '../api/get-balance.ts';
import { useSubscribe } from '../api/subscribe.ts';
import { submitCheckout } from '../checkout.ts';
import { localized } from '../plan-text.ts';
import { PlanCard } from './plan-card.tsx';

/** Spec section 9: the page reloads 2 s after a plan is applied, so every screen sees its limits. */
export const RELOAD_AFTER_SUBSCRIBE_MS = 2000;

/**
 * The plans on offer and buying one (spec section 4): a confirmation first when the team already
 * has a subscription; paid from the balance at once ('Successfully subscribed to new plan', then
 * a reload), else the price's checkout. Every button waits while one purchase is under way.
 */
export function PlansList({
  plans,
  active,
  canBuy,
}: {
  plans: TPlan[];
  active: TActiveSubscription[];
  canBuy: boolean;
}) {
  const { t, i18n } = useTranslation('billing');
  const subscribe = useSubscribe();
  const balance = useBalance().data;
  const held = balance?.balance ?? 0;
  const [confirming, setConfirming] = useState<TPlan | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const buy = async (plan: TPlan) => {
    setConfirming(null);
    setBusy(plan.id);
    try {
      const answer = await subscribe.mutateAsync(plan.id);
      if (answer.status === 'subscribed') {
        notifySuccess(t('plans.subscribed'));
        setTimeout(() => window.location.reload(), RELOAD_AFTER_SUBSCRIBE_MS);
      } else {
        // The page is left for the checkout; the buttons stay disabled until it goes.
        submitCheckout(answer);
      }
    } catch {
      // The API client has shown why (not enough balance, a plan that cannot be bought).
      setBusy(null);
    }
  };

  /** What the confirmation says: the plan, its price, and how much the card pays when the balance is short. */
  const confirmText = (plan: TPlan) => {
    const name = localized(plan.name, i18n.language);
    const price = formatMoney(plan.price ?? 0, plan.currency);
    if (held >= (plan.price ?? 0))
      return t('plans.confirmFromBalance', { name, price, balance: formatMoney(held, plan.currency) });
    return t('plans.confirmByCard', {
      name,
      price,
      balance: formatMoney(held, plan.currency),
      rest: formatMoney((plan.price ?? 0) - held, plan.currency),
    });
  };

  const currentPlanIds = new Set(active.filter((s) => !s.trial).map((s) => s.plan_id));

  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md">
        {plans.map((plan) => (
          <PlanCard
            key={plan.id}
            plan={plan}
            current={currentPlanIds.has(plan.id)}
            disabled={!canBuy || busy !== null}
            loading={busy === plan.id}
            balance={canBuy ? held : null}
            onBuy={setConfirming}
          />
        ))}
      </SimpleGrid>
      <ConfirmModal
        opened={confirming !== null}
        title={confirming ? t('plans.confirmTitle', { name: localized(confirming.name, i18n.language) }) : ''}
        message={
          confirming && (
            <>
              {confirmText(confirming)}
              {balance?.test_payments && held < (confirming.price ?? 0) && (
                <Text span display="block" mt="xs" size="xs" c="yellow.9">
                  {t('header.testPayments')}
                </Text>
              )}
            </>
          )
        }
        confirmLabel={t('plans.buy')}
        onConfirm={() => confirming && void buy(confirming)}
        onClose={() => setConfirming(null)}
      />
    </>
  );
}
