import { AppShell, Burger, Group, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../../components/language-select.tsx';
import { Logo } from '../../components/logo.tsx';
import { UserMenu } from '../../features/auth/components/user-menu.tsx';
import { ImportEvents } from '../../features/imports/components/import-events.tsx';
import { ProcessesPopover } from '../../features/processes/components/processes-popover.tsx';
import { HeaderActions } from './header-actions.tsx';
import { HeaderBreadcrumbs } from './header-breadcrumbs.tsx';
import { MainMenu } from './main-menu.tsx';
import { RouteOutlet } from './route-suspense.tsx';

/** The signed-in frame (spec section 2): left menu, header with breadcrumbs and account tools. */
export function AppShellLayout() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure();

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="md" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('toggleMenu')} />
            <Logo />
            <HeaderBreadcrumbs />
          </Group>
          <Group gap="xs" wrap="nowrap">
            <HeaderActions />
            <ProcessesPopover />
            <LanguageSelect />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <AppShell.Section grow component={ScrollArea}>
          <MainMenu onNavigate={close} />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main bg="var(--mantine-color-gray-0)">
        <ImportEvents />
        <RouteOutlet />
      </AppShell.Main>
    </AppShell>
  );
}
