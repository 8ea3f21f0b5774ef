import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUser } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { initials } from '../../../lib/format.ts';
import { useCurrentUser } from '../api/get-current-user.ts';
import { useLogout } from '../api/logout.ts';

/** Header user menu: profile, and log out after a confirmation. */
export function UserMenu() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const logout = useLogout();
  const [confirming, setConfirming] = useState(false);
  const name = user?.name ?? '';

  return (
    <>
      <Menu position="bottom-end" withinPortal width={220}>
        <Menu.Target>
          <UnstyledButton aria-label={t('userMenu')} px={4}>
            <Group gap={8} wrap="nowrap">
              <Avatar size={32} radius="xl" color="indigo">
                {name ? initials(name) : null}
              </Avatar>
              <Text size="sm" fw={500} visibleFrom="sm" maw={160} truncate>
                {name}
              </Text>
              <IconChevronDown size={14} aria-hidden />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          {user && (
            <Menu.Label>
              <Text size="xs" truncate>
                {user.email}
              </Text>
            </Menu.Label>
          )}
          <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={16} aria-hidden />}>
            {t('profile')}
          </Menu.Item>
          <Menu.Item color="red" leftSection={<IconLogout size={16} aria-hidden />} onClick={() => setConfirming(true)}>
            {t('logout')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ConfirmModal
        opened={confirming}
        title={t('logout')}
        message={t('logoutConfirm')}
        confirmLabel={t('logout')}
        loading={logout.isPending}
        onConfirm={() => logout.mutate()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
