import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/page-states.tsx';
import { useImport } from '../api/get-import.ts';
import { isImportRunning, phaseOf, progressOf } from '../import-phase.ts';
import { ImportActions } from './import-actions.tsx';
import { ImportCounters } from './import-counters.tsx';
import { ImportFailureText } from './import-failure-text.tsx';
import { PHASE_COLORS, ImportPhaseBadge } from './import-phase-badge.tsx';

interface Props {
  file: TImportFile;
  onOpenList?: (file: TImportFile) => void;
  onClose: () => void;
}

/** Import progress: the stage, its bar and the counters, kept live by `ImportStatus` events. */
export function ImportProgressStep({ file: started, onOpenList, onClose }: Props) {
  const { t } = useTranslation('imports');
  const query = useImport(started.id);
  const file = query.data ?? started;
  const phase = phaseOf(file);
  const running = isImportRunning(file);
  const progress = progressOf(file);

  return (
    <Stack>
      <Group justify="space-between" wrap="nowrap">
        <Text fw={600} truncate title={file.client_original_name}>
          {file.client_original_name}
        </Text>
        <ImportPhaseBadge phase={phase} />
      </Group>
      <Stack gap={4}>
        <Group justify="space-between">
          <Text size="sm">{t(`stage.${phase}`)}</Text>
          <Text size="sm" c="dimmed">
            {progress}%
          </Text>
        </Group>
        <Progress
          value={progress}
          color={PHASE_COLORS[phase]}
          striped={running}
          animated={running}
          aria-label={t('progressLabel', { name: file.client_original_name, value: progress })}
        />
      </Stack>
      <ImportCounters file={file} />
      {/* Once failed, the alert below says why; a poll that lost the race with the failure's event (a
          deleted list takes its import along) would only add "not found" to it. */}
      {query.isError && phase !== 'failed' && <ErrorState error={query.error} onRetry={() => query.refetch()} />}
      {(phase === 'failed' || phase === 'failing') && (
        <Alert color="red" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} title={t('failed')}>
          <ImportFailureText file={file} />
        </Alert>
      )}
      {running && (
        <Text size="sm" c="dimmed">
          {t(phase === 'failing' || phase === 'cancelling' ? 'takeBackHint' : 'backgroundHint')}
        </Text>
      )}
      <Group justify="flex-end">
        <ImportActions file={file} />
        {phase === 'completed' && onOpenList && (
          <Button variant="light" onClick={() => onOpenList(file)}>
            {t('openList')}
          </Button>
        )}
        <Button variant={running ? 'default' : 'filled'} onClick={onClose}>
          {t('close')}
        </Button>
      </Group>
    </Stack>
  );
}
