import { Button } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAttributes } from '../../features/attributes/api/get-attributes.ts';
import { SendSmsButton } from '../../features/messages/components/send-sms-button.tsx';
import type { ComposerSlot } from '../../features/messages/components/send-sms-modal.tsx';
import { useMessageEvents } from '../../features/messages/use-message-events.ts';
import { defaultCountryQueryOptions } from '../../features/settings/api/get-default-country.ts';
import { phoneTemplateQueryOptions } from '../../features/settings/api/get-phone-template.ts';
import { linkHostQueryOptions } from '../../features/short-links/api/get-link-host.ts';
import { SaveAsTemplateButton } from '../../features/templates/components/save-as-template-button.tsx';
import { SelectTemplateModal } from '../../features/templates/components/select-template-modal.tsx';
import { SmsComposer } from '../../features/templates/components/sms-composer.tsx';
import { attributeLabel } from '../../lib/attribute-label.ts';

/** The single SMS's message field: the templates' composer, load a template, save as template. */
function Composer({ slot, canManageTemplates }: { slot: ComposerSlot; canManageTemplates: boolean }) {
  const { t } = useTranslation('templates');
  const { t: tm } = useTranslation('messages-sms');
  const [loading, setLoading] = useState(false);
  const attributes = useAttributes();
  // The host links are made on, as the server picks it (the first enabled domain, else the app's
  // own): a long one warns that a link costs more than the composer counts, operators included.
  const linkHost = useQuery(linkHostQueryOptions()).data?.host ?? null;
  // The lead's attributes, rendered from its values, and the per-recipient links.
  const placeholders = useMemo(
    () => [
      ...(attributes.data ?? []).map((a) => ({ label: attributeLabel(a), tag: a.slug })),
      { label: t('composer.link'), tag: 'link' },
      { label: tm('unsubscribe'), tag: 'unsubscribe' },
    ],
    [attributes.data, t, tm],
  );
  const hasLink = /\{\{\s*link\s*\}\}/i.test(slot.value);
  return (
    <>
      <SmsComposer
        label={tm('message')}
        value={slot.value}
        onChange={slot.onChange}
        // Operators have no improver (spec section 6).
        canImprove={canManageTemplates}
        placeholders={placeholders}
        error={slot.error}
        values={slot.values}
        linkHost={linkHost}
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
              canSave={canManageTemplates}
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

/** Send SMS in the header (every role sends, from its own balance), and live message statuses. */
export function SendSmsAction({ permissions }: { permissions: readonly string[] }) {
  useMessageEvents();
  // The phone rule the server reads the typed number by, so the field can show what it becomes.
  const canSend = permissions.includes('gateways:send');
  const country = useQuery({ ...defaultCountryQueryOptions(), enabled: canSend });
  const ignored = useQuery({ ...phoneTemplateQueryOptions(), enabled: canSend });
  if (!canSend) return null;
  const canManageTemplates = permissions.includes('templates:manage');
  const phoneRule =
    country.isSuccess && ignored.isSuccess
      ? { country: country.data.country, ignored: ignored.data.values }
      : undefined;
  return (
    <SendSmsButton
      composer={(slot) => <Composer slot={slot} canManageTemplates={canManageTemplates} />}
      phoneRule={phoneRule}
    />
  );
}
