import { NavLink, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPresentation } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useCurrentUser } from '../../features/auth/api/get-current-user.ts';
import { RequestDemoModal } from '../../features/demo/components/request-demo-modal.tsx';
import { MENU } from './menu-config.ts';

export function MainMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data: user } = useCurrentUser();
  const items = MENU.filter((item) => user?.permissions.includes(item.permission));
  const [demoOpened, demo] = useDisclosure();

  return (
    <Stack gap={2} component="nav" aria-label={t('mainMenu')}>
      {items.map((item) => {
        const active =
          (item.matchNested ? pathname.startsWith(item.path) : pathname === item.path) ||
          (item.matchAlso !== undefined && pathname.startsWith(item.matchAlso));
        return (
          <NavLink
            key={item.path}
            component={Link}
            to={item.path}
            label={t(item.label)}
            leftSection={<item.icon size={18} stroke={1.6} aria-hidden />}
            active={active}
            aria-current={active ? 'page' : undefined}
            onClick={onNavigate}
            variant="light"
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
        );
      })}
      {/* Request demo is a modal, not a page (spec section 2). */}
      {user?.permissions.includes('demo:request') && (
        <>
          <NavLink
            component="button"
            type="button"
            label={t('demo:menu')}
            leftSection={<IconPresentation size={18} stroke={1.6} aria-hidden />}
            onClick={() => {
              onNavigate?.();
              demo.open();
            }}
            variant="light"
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
          <RequestDemoModal
            opened={demoOpened}
            onClose={demo.close}
            defaults={{ name: user.name, email: user.email, phone: user.phone ?? '' }}
          />
        </>
      )}
    </Stack>
  );
}
