import { useCurrentUser } from '../../features/auth/api/get-current-user.ts';
import { HeaderBalance } from '../../features/billing/components/header-balance.tsx';
import { SendSmsAction } from './send-sms-action.tsx';

/**
 * The header's slot for account actions: the free SMS counter and the balance with its top-up
 * button (operators see their balance but cannot top up, spec section 6), and Send SMS.
 */
export function HeaderActions() {
  const { data: user } = useCurrentUser();
  if (!user?.permissions.includes('balance:read')) return null;
  return (
    <>
      <SendSmsAction permissions={user.permissions} />
      <HeaderBalance canTopUp={user.permissions.includes('balance:manage')} />
    </>
  );
}
