import { TEMPLATE_MIN_LENGTH, type TSmsTemplateType } from '@herald/shared/templates/templates.schemas';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useSaveTemplate } from '../api/save-template.ts';
import { TemplateNameFields } from './template-fields.tsx';

/** "Save as template": the composer's message kept under a name, for the sender to load later. */
export function SaveAsTemplateModal({
  opened,
  message,
  redirectTo,
  onClose,
}: {
  opened: boolean;
  message: string;
  redirectTo?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('templates');
  const save = useSaveTemplate();
  const [name, setName] = useState('');
  const [type, setType] = useState<TSmsTemplateType>('promotion');
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (opened) {
      setName('');
      setError(undefined);
    }
  }, [opened]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    // React carries events through portals: opened inside another form's modal, this submit
    // would also submit that form.
    event.stopPropagation();
    if (!name.trim()) return setError(translateMessage('name_required'));
    save.mutate(
      { name: name.trim(), type_id: type, message, params: redirectTo ? { redirect_to: redirectTo } : {} },
      {
        onSuccess: () => {
          notifySuccess(translateMessage('template_saved') ?? '');
          onClose();
        },
        onError: (e) =>
          setError(
            isApiError(e)
              ? (translateMessage(Object.values(e.errors)[0]?.[0]) ?? describeApiError(e))
              : describeApiError(e),
          ),
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('saveAs.title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TemplateNameFields name={name} type={type} onName={setName} onType={setType} nameError={error} />
          <Text size="sm" c="dimmed" lineClamp={4} style={{ whiteSpace: 'pre-wrap' }}>
            {message}
          </Text>
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
    </Modal>
  );
}
