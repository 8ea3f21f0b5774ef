import { Button } from '@mantine/core';
import { IconMessage } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ComposerSlot, SendSmsModal } from './send-sms-modal.tsx';

/** The header's Send SMS button and its modal. */
export function SendSmsButton({ composer }: { composer: (slot: ComposerSlot) => ReactNode }) {
  const { t } = useTranslation('messages-sms');
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        size="xs"
        variant="light"
        leftSection={<IconMessage size={14} aria-hidden />}
        onClick={() => setOpened(true)}
      >
        {t('sendSms')}
      </Button>
      <SendSmsModal opened={opened} onClose={() => setOpened(false)} composer={composer} />
    </>
  );
}
