import { ActionIcon, Button } from '@mantine/core';
import { IconMessage } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PhoneRuleSettings } from './phone-field.tsx';
import { type ComposerSlot, SendSmsModal } from './send-sms-modal.tsx';

/** The header's Send SMS button and its modal. */
export function SendSmsButton({
  composer,
  phoneRule,
}: {
  composer: (slot: ComposerSlot) => ReactNode;
  phoneRule?: PhoneRuleSettings;
}) {
  const { t } = useTranslation('messages-sms');
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        size="xs"
        variant="light"
        leftSection={<IconMessage size={14} aria-hidden />}
        onClick={() => setOpened(true)}
        visibleFrom="sm"
      >
        {t('sendSms')}
      </Button>
      {/* On a phone the header has no room for the label (the Russian one is widest): the icon alone. */}
      <ActionIcon variant="light" size="lg" aria-label={t('sendSms')} onClick={() => setOpened(true)} hiddenFrom="sm">
        <IconMessage size={18} aria-hidden />
      </ActionIcon>
      <SendSmsModal opened={opened} onClose={() => setOpened(false)} composer={composer} phoneRule={phoneRule} />
    </>
  );
}
