import { Card, Tabs, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { ChangePasswordForm } from '../../../features/auth/components/change-password-form.tsx';
import { SubscriptionTestPanel } from '../../../features/billing/components/subscription-test-panel.tsx';
import { TransactionsTable } from '../../../features/billing/components/transactions-table.tsx';
import { historyDaysOf } from '../../../features/billing/plan-text.ts';
import { useTableState } from '../../../lib/use-table-state.ts';
import { ProfileSubscriptionsPage } from './profile-subscriptions-page.tsx';

const TABS = ['subscriptions', 'change-password', 'transactions', 'test'] as const;
type Tab = (typeof TABS)[number];

/**
 * `/old-profile` (spec section 2): the earlier profile, one page of tabs: subscriptions, change
 * password, transactions, and test (spend 10 SMS or 10 imported contacts of the plan). The tab is
 * kept in the address (`?tab=`), so a reload or a shared link opens the same one.
 */
export function OldProfilePage() {
  const { t } = useTranslation('billing');
  const { data: user } = useCurrentUser();
  const canSeePlans = usePermission('plans:read');
  const [params, setParams] = useSearchParams();
  const tabs = TABS.filter((tab) => canSeePlans || (tab !== 'subscriptions' && tab !== 'test'));
  const asked = params.get('tab') as Tab | null;
  const tab = asked && tabs.includes(asked) ? asked : tabs[0];
  const table = useTableState('old-profile-transactions', { field: 'created_at', dir: 'desc' }, 15);

  return (
    <Card withBorder radius="md" p="lg">
      <Title order={3} mb="md">
        {t('oldProfile.title')}
      </Title>
      <Tabs value={tab} onChange={(next) => next && setParams({ tab: next }, { replace: true })} keepMounted={false}>
        <Tabs.List mb="md">
          {tabs.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {t(`oldProfile.tabs.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="subscriptions">
          <ProfileSubscriptionsPage />
        </Tabs.Panel>
        <Tabs.Panel value="change-password" maw={520}>
          <ChangePasswordForm />
        </Tabs.Panel>
        <Tabs.Panel value="transactions">
          <TransactionsTable
            table={table}
            currency={user?.balance_currency ?? 'UAH'}
            historyDays={historyDaysOf(user?.subscriptions)}
          />
        </Tabs.Panel>
        <Tabs.Panel value="test">
          <SubscriptionTestPanel />
        </Tabs.Panel>
      </Tabs>
    </Card>
  );
}
