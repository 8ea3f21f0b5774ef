import { CAMPAIGN_PROCESS_KIND } from '@herald/shared/campaigns/campaign-live.schemas';
import { LOOKUP_PROCESS_KIND } from '@herald/shared/lookups/lookups.schemas';
import type { TProcess } from '@herald/shared/processes/processes.schemas';
import { AppShell, Box, Burger, Group, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../../components/language-select.tsx';
import { Logo } from '../../components/logo.tsx';
import { useCurrentUser } from '../../features/auth/api/get-current-user.ts';
import { UserMenu } from '../../features/auth/components/user-menu.tsx';
import { ActivatePlanPrompt } from '../../features/billing/components/activate-plan-prompt.tsx';
import { CampaignEvents } from '../../features/campaigns/components/campaign-events.tsx';
import { CampaignProcessActions } from '../../features/campaigns/components/campaign-process-actions.tsx';
import { ImportEvents } from '../../features/imports/components/import-events.tsx';
import { LookupEvents } from '../../features/lookups/components/lookup-events.tsx';
import { LookupProcessActions } from '../../features/lookups/components/lookup-process-actions.tsx';
import { ProcessesPopover } from '../../features/processes/components/processes-popover.tsx';
import { ExportDownloadLink, exportIdOfProcess } from '../../features/segments/components/export-download-link.tsx';
import { ActionsLockedProvider } from '../../lib/subscription-gate.tsx';
import { HeaderActions } from './header-actions.tsx';
import { HeaderBreadcrumbs } from './header-breadcrumbs.tsx';
import { MainMenu } from './main-menu.tsx';
import { RouteOutlet } from './route-suspense.tsx';

/**
 * The signed-in frame (spec section 2): left menu, header with breadcrumbs and account tools.
 * On a phone the menu folds behind the burger and the breadcrumbs move above the page, so the
 * account tools (processes, language, user menu with profile and log out) always fit the header.
 */
export function AppShellLayout() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure();
  const { data: user } = useCurrentUser();
  // No subscription in force: context-menu actions are disabled, and an owner is asked to choose a plan.
  const unsubscribed = user !== undefined && user.subscriptions.length === 0;

  return (
    <ActionsLockedProvider locked={unsubscribed}>
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
        padding={{ base: 'xs', sm: 'lg' }}
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="md" wrap="nowrap" miw={0}>
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('toggleMenu')} />
              <Logo compactOnPhone />
              <Box visibleFrom="sm" miw={0}>
                <HeaderBreadcrumbs />
              </Box>
            </Group>
            <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
              <HeaderActions />
              <ProcessesPopover renderExtra={processExtra} />
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
          <CampaignEvents userId={user?.id} />
          <LookupEvents userId={user?.id} />
          <Box hiddenFrom="sm" mb="xs">
            <HeaderBreadcrumbs />
          </Box>
          <RouteOutlet />
          <ActivatePlanPrompt show={unsubscribed && user?.role === 'team_owner'} />
        </AppShell.Main>
      </AppShell>
    </ActionsLockedProvider>
  );
}

/**
 * What other features add under a process in the popover: a finished export's download (as beside
 * its audience), a campaign's pause or resume and its page, a lookup's stop or start.
 */
function processExtra(process: TProcess) {
  const exportId = exportIdOfProcess(process);
  if (exportId) return <ExportDownloadLink exportId={exportId} name={process.title} />;
  if (process.kind === LOOKUP_PROCESS_KIND) return <LookupProcessActions process={process} />;
  return process.kind === CAMPAIGN_PROCESS_KIND ? <CampaignProcessActions process={process} /> : null;
}
