import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { ImportProgressStep } from './import-progress-step.tsx';
import { MatchFormatStep } from './match-format-step.tsx';

/** The steps of an uploaded file: its columns mapped, then its progress once it runs. */
export type ImportRunStep = { name: 'match'; file: TImportFile } | { name: 'progress'; file: TImportFile };

interface Props {
  step: ImportRunStep;
  /** The attributes to map columns to: Match Format waits for them, or says why they did not come. */
  attributes: UseQueryResult<TLeadAttribute[]>;
  onProgress: (file: TImportFile) => void;
  onClose: () => void;
  onOpenList?: (file: TImportFile) => void;
}

/**
 * Match Format and Import progress, as the import modal shows them after an upload and as
 * "Continue" shows them for an upload left at Match Format.
 */
export function ImportRunSteps({ step, attributes, onProgress, onClose, onOpenList }: Props) {
  const { t } = useTranslation('imports');
  // While a retry runs the query keeps its error: it shows as loading again.
  const attributesFailed = !attributes.data && attributes.isError && !attributes.isFetching;

  if (step.name === 'progress') {
    return (
      <ImportProgressStep
        file={step.file}
        onClose={onClose}
        onOpenList={
          onOpenList
            ? (file) => {
                onClose();
                onOpenList(file);
              }
            : undefined
        }
      />
    );
  }
  if (attributesFailed) return <ErrorState error={attributes.error} onRetry={() => attributes.refetch()} />;
  if (!attributes.data) return <LoadingState rows={5} />;
  return (
    <MatchFormatStep
      file={step.file}
      attributes={attributes.data}
      onCancel={onClose}
      onStarted={(file) => {
        notifySuccess(t('started', { filename: file.client_original_name }));
        onProgress(file);
      }}
    />
  );
}
