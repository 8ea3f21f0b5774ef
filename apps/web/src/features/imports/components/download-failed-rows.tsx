import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifyError } from '../../../lib/notify.ts';
import { saveTextFile } from '../../../lib/save-file.ts';
import { exportFailedRows } from '../api/export-failed-rows.ts';
import { failedRowsCsv, failedRowsFileName } from '../failed-rows-csv.ts';

/** Saves the rows of a file that were not imported as a CSV, to fix in a spreadsheet and import again. */
export function DownloadFailedRows({ file }: { file: Pick<TImportFile, 'id' | 'client_original_name'> }) {
  const { t } = useTranslation('imports');
  const [busy, setBusy] = useState(false);

  const download = async () => {
    setBusy(true);
    try {
      const csv = failedRowsCsv(await exportFailedRows(file.id), {
        row: t('failedLeads.row'),
        reason: t('failedLeads.reason'),
        translate: (reason) => translateMessage(reason) ?? reason.code,
      });
      saveTextFile(csv, failedRowsFileName(file.client_original_name), 'text/csv;charset=utf-8');
    } catch (error) {
      // A sign-in that expired, a 429: already said by the API client.
      if (!(isApiError(error) && error.handled)) notifyError(describeApiError(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      loading={busy}
      onClick={download}
      aria-label={t('failedLeads.downloadNamed', { name: file.client_original_name })}
    >
      {t('failedLeads.download')}
    </Button>
  );
}
