import { Button } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAttributes } from '../../../features/attributes/api/get-attributes.ts';
import type { StepComposerSlot } from '../../../features/campaigns/components/campaign-step-card.tsx';
import { SaveAsTemplateButton } from '../../../features/templates/components/save-as-template-button.tsx';
import { SelectTemplateModal } from '../../../features/templates/components/select-template-modal.tsx';
import { SmsComposer } from '../../../features/templates/components/sms-composer.tsx';
import { attributeLabel } from '../../../lib/attribute-label.ts';

/** A step's message: the templates' composer (live counter, placeholders), load and save a template. */
export function StepComposer({ slot }: { slot: StepComposerSlot }) {
  const { t } = useTranslation('templates');
  const { t: tm } = useTranslation('messages-sms');
  const { t: tc } = useTranslation('campaigns');
  const [loading, setLoading] = useState(false);
  const attributes = useAttributes();
  const placeholders = useMemo(
    () => [
      ...(attributes.data ?? []).map((a) => ({ label: attributeLabel(a), tag: a.slug })),
      { label: t('composer.link'), tag: 'link' },
      { label: tm('unsubscribe'), tag: 'unsubscribe' },
    ],
    [attributes.data, t, tm],
  );
  const hasLink = /\{\{\s*link\s*\}\}/i.test(slot.value);
  if (slot.disabled) {
    return <SmsComposer label={tc('message')} value={slot.value} onChange={() => undefined} canImprove={false} />;
  }
  return (
    <>
      <SmsComposer
        label={tc('message')}
        value={slot.value}
        onChange={slot.onChange}
        canImprove={false}
        placeholders={placeholders}
        actions={
          <>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconFileImport size={14} aria-hidden />}
              onClick={() => setLoading(true)}
            >
              {t('select.open')}
            </Button>
            <SaveAsTemplateButton
              message={slot.value}
              redirectTo={hasLink ? slot.redirectTo.trim() : undefined}
              canSave
            />
          </>
        }
      />
      <SelectTemplateModal
        opened={loading}
        onClose={() => setLoading(false)}
        onSelect={(template) => {
          slot.onChange(template.message);
          if (template.params.redirect_to) slot.onRedirectTo(template.params.redirect_to);
        }}
      />
    </>
  );
}
