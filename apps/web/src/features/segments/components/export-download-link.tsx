import { exportReadyOf, type TProcess } from '@herald/shared/processes/processes.schemas';
import { Anchor, Group } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { notifyError } from '../../../lib/notify.ts';
import { downloadExport } from '../api/download-export.ts';

/** A finished export's process names its file (`export_ready`). */
export function exportIdOfProcess(process: Pick<TProcess, 'kind' | 'status' | 'message'>) {
  const exportId = exportReadyOf(process.message);
  return process.kind === 'segments.export' && process.status === 'completed' ? exportId : null;
}

/** The download of a finished export, where it is shown away from its audience (the processes popover). */
export function ExportDownloadLink({ exportId, name }: { exportId: number; name: string }) {
  const { t } = useTranslation('segments');
  const url = `/api/exports/${exportId}/download`;
  const download = (event: MouseEvent) => {
    event.preventDefault();
    downloadExport({ id: exportId, url }).catch((error: unknown) => {
      if (!(isApiError(error) && error.handled)) notifyError(describeApiError(error));
    });
  };
  return (
    <Anchor href={url} onClick={download} size="xs" aria-label={t('downloadNamed', { name })}>
      <Group gap={4} wrap="nowrap">
        <IconDownload size={14} aria-hidden />
        {t('download')}
      </Group>
    </Anchor>
  );
}
