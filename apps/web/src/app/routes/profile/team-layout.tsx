import { Button, Group, Stack, Tabs, Title } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { LoadingState } from '../../../components/page-states.tsx';
import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { InviteModal } from '../../../features/team/components/invite-modal.tsx';
import { RouteOutlet } from '../../layout/route-suspense.tsx';

/** `/profile/team` and `/profile/team/invites`; users who cannot manage the team go to /profile. */
export function TeamLayout() {
  const { t } = useTranslation('team');
  const user = useCurrentUser();
  const allowed = usePermission('team:manage');
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [inviting, setInviting] = useState(false);

  if (user.isPending) return <LoadingState />;
  if (!allowed) return <Navigate to="/profile" replace />;
  const tab = pathname.endsWith('/invites') ? 'invites' : 'team';

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{t('title')}</Title>
        <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setInviting(true)}>
          {t('inviteUser')}
        </Button>
      </Group>
      <Tabs value={tab} onChange={(value) => navigate(value === 'invites' ? '/profile/team/invites' : '/profile/team')}>
        <Tabs.List>
          <Tabs.Tab value="team">{t('tabs.team')}</Tabs.Tab>
          <Tabs.Tab value="invites">{t('tabs.invites')}</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <RouteOutlet />
      <InviteModal
        opened={inviting}
        onClose={() => setInviting(false)}
        onInvited={() => {
          setInviting(false);
          navigate('/profile/team/invites');
        }}
      />
    </Stack>
  );
}
