import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { useSubscriptions } from '../../../features/billing/api/get-subscriptions.ts';
import { ActiveSubscription } from '../../../features/billing/components/active-subscription.tsx';
import { PlansList } from '../../../features/billing/components/plans-list.tsx';
import { PriceList } from '../../../features/billing/components/price-list.tsx';

/** `/profile/subscriptions`: the active subscription, the plans on offer, and the price list. */
export function ProfileSubscriptionsPage() {
  const { t } = useTranslation('billing');
  const { data: user } = useCurrentUser();
  const canBuy = usePermission('balance:manage');
  const query = useSubscriptions();
  if (query.isPending) return <LoadingState rows={6} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  const { available_plans: plans, active_subscriptions: active, prices } = query.data;
  const currency = user?.balance_currency ?? 'UAH';
  const priceList = prices.find((p) => p.currency === currency) ?? prices[0];
  return (
    <Stack gap="lg">
      <Title order={3}>{t('plans.title')}</Title>
      {active.map((subscription) => (
        <ActiveSubscription key={subscription.id} subscription={subscription} />
      ))}
      <PlansList plans={plans} active={active} canBuy={canBuy} />
      {priceList && <PriceList prices={priceList} />}
    </Stack>
  );
}
