import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { TeamTable } from '../../../features/team/components/team-table.tsx';

export function TeamMembersPage() {
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return <TeamTable currentUserId={user.id} currency={user.balance_currency} />;
}
