import { Avatar, Badge, Card, Grid, NavLink, Stack, Text } from '@mantine/core';
import { IconCreditCard, IconLock, IconReceipt, IconUser, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { PlanUsage } from '../../../features/billing/components/plan-usage.tsx';
import { initials } from '../../../lib/format.ts';
import { RouteOutlet } from '../../layout/route-suspense.tsx';

/** `/profile/*`: a card with the user and the profile navigation beside the chosen section. */
export function ProfileLayout() {
  const { t } = useTranslation('profile');
  const { data: user } = useCurrentUser();
  const canManageTeam = usePermission('team:manage');
  const canSeePlans = usePermission('plans:read');
  const { pathname } = useLocation();
  const items = [
    { to: '/profile', label: t('nav.personal'), icon: IconUser, active: pathname === '/profile' },
    { to: '/profile/security', label: t('nav.security'), icon: IconLock, active: pathname === '/profile/security' },
    ...(canSeePlans
      ? [
          {
            to: '/profile/subscriptions',
            label: t('billing:nav.subscriptions'),
            icon: IconCreditCard,
            active: pathname === '/profile/subscriptions',
          },
        ]
      : []),
    {
      to: '/profile/transactions',
      label: t('billing:nav.transactions'),
      icon: IconReceipt,
      active: pathname === '/profile/transactions',
    },
    ...(canManageTeam
      ? [{ to: '/profile/team', label: t('nav.team'), icon: IconUsers, active: pathname.startsWith('/profile/team') }]
      : []),
  ];

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 4, lg: 3 }}>
        <Card withBorder radius="md" p="lg">
          <Stack align="center" gap={6}>
            <Avatar size={72} radius="xl" color="indigo">
              {user ? initials(user.name) : null}
            </Avatar>
            <Text fw={600} size="lg" ta="center">
              {user?.name}
            </Text>
            <Text size="sm" c="dimmed" ta="center" w="100%" style={{ overflowWrap: 'anywhere' }}>
              {user?.email}
            </Text>
            {user && (
              <Badge variant="light" mt={4}>
                {t(`team:roles.${user.role}`)}
              </Badge>
            )}
            {user && <PlanUsage subscriptions={user.subscriptions} canChange={canSeePlans} />}
          </Stack>
          <Stack gap={2} mt="lg" component="nav" aria-label={t('nav.label')}>
            {items.map((item) => (
              <NavLink
                key={item.to}
                component={Link}
                to={item.to}
                label={item.label}
                leftSection={<item.icon size={18} stroke={1.6} aria-hidden />}
                active={item.active}
                aria-current={item.active ? 'page' : undefined}
                variant="light"
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
              />
            ))}
          </Stack>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>
        <Card withBorder radius="md" p="lg">
          <RouteOutlet />
        </Card>
      </Grid.Col>
    </Grid>
  );
}
