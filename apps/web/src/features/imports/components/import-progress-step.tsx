import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { ErrorState } from '../../../components/page-states.tsx';
import { useCancelImport } from '../api/cancel-import.ts';
import { useResumeImport } from '../api/resume-import.ts';
import { useImport } from '../api/get-import.ts';
import { isImportRunning, phaseOf, progressOf } from '../import-phase.ts';
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
  const cancel = useCancelImport();
  const resume = useResumeImport();
  const [confirming, setConfirming] = useState(false);
  // A running import can be cancelled; so can one that failed while publishing (its leads so far
  // stay until it is resumed or cancelled), which took some leads in.
  const cancellable = phase === 'running' || phase === 'resolving' || (phase === 'failed' && file.leads_processed > 0);

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
      {query.isError && <ErrorState error={query.error} onRetry={() => query.refetch()} />}
      {(phase === 'failed' || phase === 'failing') && (
        <Alert color="red" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} title={t('failed')}>
          <ImportFailureText file={file} />
        </Alert>
      )}
      {running && (
        <Text size="sm" c="dimmed">
          {t('backgroundHint')}
        </Text>
      )}
      <Group justify="flex-end">
        {cancellable && (
          <Button variant="subtle" color="red" onClick={() => setConfirming(true)}>
            {t('cancel.button')}
          </Button>
        )}
        {phase === 'failed' && file.resumable && (
          <Button variant="light" loading={resume.isPending} onClick={() => resume.mutate(file.id)}>
            {t('resume')}
          </Button>
        )}
        {phase === 'completed' && onOpenList && (
          <Button variant="light" onClick={() => onOpenList(file)}>
            {t('openList')}
          </Button>
        )}
        <Button variant={running ? 'default' : 'filled'} onClick={onClose}>
          {t('close')}
        </Button>
      </Group>
      <ConfirmModal
        opened={confirming}
        title={t('cancel.title')}
        message={t('cancel.text')}
        confirmLabel={t('cancel.confirm')}
        cancelLabel={t('cancel.keep')}
        danger
        loading={cancel.isPending}
        onConfirm={() => cancel.mutate(file.id, { onSettled: () => setConfirming(false) })}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
