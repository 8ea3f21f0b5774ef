import { Badge, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconDownload, IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSources } from '../../../features/sources/api/get-sources.ts';
import { useSourcesTotal } from '../../../features/sources/api/get-sources-total.ts';
import { sampleImportFile } from '../../../lib/sample-import-file.ts';
import { saveTextFile } from '../../../lib/save-file.ts';
import { ImportButton } from '../sources/import-button.tsx';

/** The smallest question that says whether the team has a source at all. */
const ONE_SOURCE = { page: 1, limit: 1 };

/**
 * The first screen's checklist until the team's first audience exists: a source, a file imported
 * into it (with a sample file in the user's language), an audience. Each step says what to do and
 * has the button that does it; a step done is ticked from the team's own data, not remembered.
 */
export function FirstSteps({ onCreateAudience }: { onCreateAudience: () => void }) {
  const { t, i18n } = useTranslation('segments');
  const navigate = useNavigate();
  const sources = useSources(ONE_SOURCE);
  const total = useSourcesTotal();
  if (sources.isPending || total.isPending) return null;
  const hasSource = (sources.data?.meta.total ?? 0) > 0;
  const hasLeads = (total.data?.total_leads ?? 0) > 0;
  const sample = () => {
    const file = sampleImportFile(i18n.language);
    saveTextFile(file.text, file.name, 'text/csv;charset=utf-8');
  };

  return (
    <Paper withBorder radius="md" p="md" role="region" aria-label={t('firstSteps.title')}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('firstSteps.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('firstSteps.intro')}
        </Text>
        <Step n={1} done={hasSource} title={t('firstSteps.source')} hint={t('firstSteps.sourceHint')}>
          <Button
            size="xs"
            variant={hasSource ? 'default' : 'filled'}
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => navigate('/sources', { state: { create: true } })}
          >
            {t('firstSteps.sourceAction')}
          </Button>
        </Step>
        <Step n={2} done={hasLeads} title={t('firstSteps.import')} hint={t('firstSteps.importHint')}>
          <ImportButton />
          <Button size="xs" variant="subtle" leftSection={<IconDownload size={14} aria-hidden />} onClick={sample}>
            {t('firstSteps.sample')}
          </Button>
        </Step>
        <Step n={3} done={false} title={t('firstSteps.audience')} hint={t('firstSteps.audienceHint')}>
          <Button
            size="xs"
            variant={hasLeads ? 'filled' : 'default'}
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={onCreateAudience}
          >
            {t('firstSteps.audienceAction')}
          </Button>
        </Step>
      </Stack>
    </Paper>
  );
}

function Step(props: { n: number; done: boolean; title: string; hint: string; children: ReactNode }) {
  const { t } = useTranslation('segments');
  return (
    <Group align="flex-start" wrap="nowrap" gap="sm" data-step={props.n} data-done={props.done}>
      <ThemeIcon radius="xl" size="md" variant={props.done ? 'filled' : 'light'} color={props.done ? 'teal' : 'blue'}>
        {props.done ? <IconCheck size={16} aria-hidden /> : <Text size="sm">{props.n}</Text>}
      </ThemeIcon>
      <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
        <Group gap="xs">
          <Text fw={600}>{props.title}</Text>
          {props.done && (
            <Badge size="sm" color="teal" variant="light">
              {t('firstSteps.done')}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {props.hint}
        </Text>
        <Group gap="xs">{props.children}</Group>
      </Stack>
    </Group>
  );
}
