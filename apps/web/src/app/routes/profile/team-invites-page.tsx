import { InvitationsTable } from '../../../features/team/components/invitations-table.tsx';

export function TeamInvitesPage() {
  return <InvitationsTable />;
}
