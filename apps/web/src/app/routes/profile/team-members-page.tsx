import type { TTeamMember } from '@herald/shared/team/team.schemas';
import { useState } from 'react';
import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { useBalance } from '../../../features/billing/api/get-balance.ts';
import { MemberBalanceButton } from '../../../features/billing/components/member-balance-button.tsx';
import { ShareBalanceModal } from '../../../features/billing/components/share-balance-modal.tsx';
import { TeamTable } from '../../../features/team/components/team-table.tsx';

/** `/profile/team`: the members, each with Share balance from the signed-in user's own balance. */
export function TeamMembersPage() {
  const { data: user } = useCurrentUser();
  const balance = useBalance();
  const [sharing, setSharing] = useState<TTeamMember | null>(null);
  if (!user) return null;
  const own = balance.data?.balance ?? 0;
  const currency = balance.data?.balance_currency ?? user.balance_currency;
  return (
    <>
      <TeamTable
        currentUserId={user.id}
        currency={currency}
        memberActions={(member) => <MemberBalanceButton member={member} ownBalance={own} onShare={setSharing} />}
      />
      <ShareBalanceModal member={sharing} ownBalance={own} currency={currency} onClose={() => setSharing(null)} />
    </>
  );
}
