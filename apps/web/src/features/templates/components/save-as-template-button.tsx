import { TEMPLATE_MIN_LENGTH } from '@herald/shared/templates/templates.schemas';
import { Button, Tooltip } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SaveAsTemplateModal } from './save-as-template-modal.tsx';

/**
 * "Save as template" beside a composer: disabled under 5 characters, and absent for those who
 * cannot save templates (operators), whom `canSave` names.
 */
export function SaveAsTemplateButton({
  message,
  redirectTo,
  canSave,
}: {
  message: string;
  redirectTo?: string;
  canSave: boolean;
}) {
  const { t } = useTranslation('templates');
  const [open, setOpen] = useState(false);
  if (!canSave) return null;
  const tooShort = message.trim().length < TEMPLATE_MIN_LENGTH;
  return (
    <>
      <Tooltip label={t('composer.tooShort')} disabled={!tooShort}>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconDeviceFloppy size={14} aria-hidden />}
          disabled={tooShort}
          onClick={() => setOpen(true)}
        >
          {t('saveAs.open')}
        </Button>
      </Tooltip>
      <SaveAsTemplateModal opened={open} message={message} redirectTo={redirectTo} onClose={() => setOpen(false)} />
    </>
  );
}
