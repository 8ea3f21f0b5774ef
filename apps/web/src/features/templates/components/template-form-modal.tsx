import type { TSmsTemplate, TSmsTemplateType } from '@herald/shared/templates/templates.schemas';
import { TEMPLATE_MIN_LENGTH } from '@herald/shared/templates/templates.schemas';
import { Button, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useSaveTemplate } from '../api/save-template.ts';
import { type Placeholder, SmsComposer } from './sms-composer.tsx';
import { SaveAsTemplateButton } from './save-as-template-button.tsx';
import { SelectTemplateModal } from './select-template-modal.tsx';
import { TemplateNameFields } from './template-fields.tsx';

type FieldErrors = Partial<Record<'name' | 'message' | 'redirect_to', string>>;

/** "Add/update template": a new template (`template` null) or one of the team's own. */
export function TemplateFormModal({
  opened,
  template,
  placeholders,
  onClose,
}: {
  opened: boolean;
  template: TSmsTemplate | null;
  placeholders: readonly Placeholder[];
  onClose: () => void;
}) {
  const { t } = useTranslation('templates');
  const save = useSaveTemplate();
  const [name, setName] = useState('');
  const [type, setType] = useState<TSmsTemplateType>('promotion');
  const [message, setMessage] = useState('');
  const [redirectTo, setRedirectTo] = useState('');
  const [shared, setShared] = useState(true);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [loading, setLoading] = useState(false);
  const hasLink = /\{\{\s*link\s*\}\}/i.test(message);

  useEffect(() => {
    if (!opened) return;
    setName(template?.name ?? '');
    setType(template?.type_id ?? 'promotion');
    setMessage(template?.message ?? '');
    setRedirectTo(template?.params.redirect_to ?? '');
    setShared(template?.public ?? true);
    setErrors({});
  }, [opened, template]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setErrors({ name: translateMessage('name_required') });
    save.mutate(
      {
        id: template?.id,
        name: name.trim(),
        type_id: type,
        message,
        public: shared,
        params: hasLink && redirectTo.trim() ? { redirect_to: redirectTo.trim() } : {},
      },
      {
        onSuccess: () => {
          notifySuccess(translateMessage('template_saved') ?? '');
          onClose();
        },
        onError: (e) => {
          if (!isApiError(e) || e.status !== 422) return notifyError(describeApiError(e));
          setErrors({
            name: translateMessage(e.errors.name?.[0]),
            message: translateMessage(e.errors.message?.[0]),
            redirect_to: translateMessage(e.errors['params.redirect_to']?.[0]),
          });
        },
      },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={template ? t('form.editTitle') : t('form.addTitle')}
      size="lg"
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <TemplateNameFields name={name} type={type} onName={setName} onType={setType} nameError={errors.name} />
          <SmsComposer
            label={t('fields.message')}
            value={message}
            onChange={(value) => {
              setMessage(value);
              // A refusal of the text no longer stands once the text changes.
              setErrors((current) => ({ ...current, message: undefined }));
            }}
            canImprove
            placeholders={placeholders}
            error={errors.message}
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
                {/* An existing template's text kept as a new one beside it. */}
                {template && (
                  <SaveAsTemplateButton
                    message={message}
                    redirectTo={hasLink ? redirectTo.trim() : undefined}
                    canSave
                  />
                )}
              </>
            }
          />
          {hasLink && (
            <TextInput
              label={t('fields.redirectTo')}
              placeholder="https://"
              value={redirectTo}
              onChange={(e) => setRedirectTo(e.currentTarget.value)}
              error={errors.redirect_to}
            />
          )}
          <Switch label={t('fields.public')} checked={shared} onChange={(e) => setShared(e.currentTarget.checked)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} disabled={message.trim().length < TEMPLATE_MIN_LENGTH}>
              {t('common:save')}
            </Button>
          </Group>
        </Stack>
      </form>
      <SelectTemplateModal
        opened={loading}
        onClose={() => setLoading(false)}
        onSelect={(loaded) => {
          setMessage(loaded.message);
          if (loaded.params.redirect_to) setRedirectTo(loaded.params.redirect_to);
        }}
      />
    </Modal>
  );
}
