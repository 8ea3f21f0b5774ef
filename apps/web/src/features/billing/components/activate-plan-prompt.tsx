import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

const DISMISSED_KEY = 'herald.activatePlanDismissed';

function wasDismissed(): boolean {
  try {
    return sessionStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * The activate-plan prompt (spec section 6): only a team owner whose team has no subscription
 * sees it, never on the profile pages where plans are chosen. "Later" hides it for the rest of
 * the browser session, so it does not return on every page.
 */
export function ActivatePlanPrompt({ show }: { show: boolean }) {
  const { t } = useTranslation('billing');
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [dismissed, setDismissed] = useState(wasDismissed);
  const opened = show && !dismissed && !pathname.startsWith('/profile') && !pathname.startsWith('/old-profile');

  const later = () => {
    try {
      sessionStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // Storage disabled: it stays hidden until the next reload.
    }
    setDismissed(true);
  };

  return (
    <Modal opened={opened} onClose={later} title={t('activate.title')} centered>
      <Stack>
        <Text size="sm">{t('activate.text')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={later}>
            {t('activate.later')}
          </Button>
          <Button onClick={() => navigate('/profile/subscriptions')}>{t('activate.choose')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
