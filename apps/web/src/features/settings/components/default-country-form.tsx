import { PHONE_COUNTRIES } from '@herald/shared/leads/phone';
import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useDefaultCountry } from '../api/get-default-country.ts';
import { useSaveDefaultCountry } from '../api/save-default-country.ts';

/** The team's default phone country (decision 011), its names in the chosen language. */
export function DefaultCountryForm({ canEdit }: { canEdit: boolean }) {
  const { t, i18n } = useTranslation('settings');
  const current = useDefaultCountry();
  const save = useSaveDefaultCountry();
  const [country, setCountry] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (current.data) setCountry(current.data.country);
  }, [current.data]);

  const options = useMemo(() => {
    const names = new Intl.DisplayNames([i18n.language], { type: 'region' });
    return PHONE_COUNTRIES.map((code) => ({ value: code, label: `${names.of(code) ?? code} (${code})` })).sort((a, b) =>
      a.label.localeCompare(b.label, i18n.language),
    );
  }, [i18n.language]);

  if (current.isPending) return <LoadingState rows={2} />;
  if (current.isError) return <ErrorState error={current.error} onRetry={() => current.refetch()} />;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!country) return;
    setError(undefined);
    setBusy(true);
    await delay(SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync(country);
      notifySuccess(t('defaultCountry.saved'));
    } catch (e) {
      if (isApiError(e)) setError(translateMessage(e.errors.country?.[0] ?? e.message));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={640}>
        <Text size="sm">{t('defaultCountry.intro')}</Text>
        <Group align="flex-end">
          <Select
            label={t('defaultCountry.label')}
            data={options}
            value={country}
            onChange={setCountry}
            searchable
            allowDeselect={false}
            readOnly={!canEdit}
            error={error}
            w={360}
          />
          {canEdit && (
            <Button type="submit" loading={busy} disabled={!country || country === current.data.country}>
              {t('common:save')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
