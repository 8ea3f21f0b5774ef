import { Button, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { usePhoneTemplate } from '../api/get-phone-template.ts';
import { useSavePhoneTemplate } from '../api/save-phone-template.ts';

/** The ignored phone formats: one pattern per line (syntax in docs/decisions/007). */
export function PhoneTemplateForm({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('settings');
  const template = usePhoneTemplate();
  const save = useSavePhoneTemplate();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (template.data) setText(template.data.values);
  }, [template.data]);

  if (template.isPending) return <LoadingState rows={6} />;
  if (template.isError) return <ErrorState error={template.error} onRetry={() => template.refetch()} />;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setBusy(true);
    await delay(SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync(text);
      notifySuccess(t('phoneFormat.saved'));
    } catch (e) {
      if (isApiError(e)) setError(translateMessage(e.errors.values?.[0]));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={640}>
        <Text size="sm">{t('phoneFormat.intro')}</Text>
        <List size="sm" spacing={2}>
          <List.Item>{t('phoneFormat.ruleDigits')}</List.Item>
          <List.Item>{t('phoneFormat.ruleX')}</List.Item>
          <List.Item>{t('phoneFormat.ruleStar')}</List.Item>
          <List.Item>{t('phoneFormat.ruleIgnored')}</List.Item>
          <List.Item>{t('phoneFormat.ruleComment')}</List.Item>
        </List>
        <Textarea
          label={t('phoneFormat.label')}
          description={t('phoneFormat.example')}
          autosize
          minRows={8}
          maxRows={20}
          readOnly={!canEdit}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          error={error}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        {canEdit && (
          <Group justify="flex-end">
            <Button type="submit" loading={busy} disabled={text === template.data.values}>
              {t('common:save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
