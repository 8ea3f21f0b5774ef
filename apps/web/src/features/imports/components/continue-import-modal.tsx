import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { Modal } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { importQueryOptions } from '../api/get-import.ts';
import { phaseOf } from '../import-phase.ts';
import { IMPORT_MODAL_SIZES, IMPORT_MODAL_TITLES } from './import-modal.tsx';
import { type ImportRunStep, ImportRunSteps } from './import-run-steps.tsx';

interface Props extends Pick<Parameters<typeof ImportRunSteps>[0], 'attributes'> {
  fileId: number;
  onClose: () => void;
}

/**
 * An upload left at Match Format (the modal closed, the page reloaded, or a teammate's), taken up
 * again from the import history: its columns are read afresh and mapped, then it runs as from the
 * import modal. An import that has meanwhile been run shows its progress instead. Mounted open
 * (its caller renders it while continuing), so each Continue starts afresh.
 */
export function ContinueImportModal({ fileId, attributes, onClose }: Props) {
  const { t } = useTranslation('imports');
  const navigate = useNavigate();
  const file = useQuery(importQueryOptions(fileId));
  const [started, setStarted] = useState<TImportFile | null>(null);

  const step: ImportRunStep | null = started
    ? { name: 'progress', file: started }
    : file.data
      ? { name: phaseOf(file.data) === 'waiting' ? 'match' : 'progress', file: file.data }
      : null;
  return (
    <Modal
      opened
      onClose={onClose}
      title={t(IMPORT_MODAL_TITLES[step?.name ?? 'match'])}
      size={IMPORT_MODAL_SIZES[step?.name ?? 'match']}
      centered
      closeOnClickOutside={step?.name !== 'match'}
    >
      {step ? (
        <ImportRunSteps
          step={step}
          attributes={attributes}
          onProgress={setStarted}
          onClose={onClose}
          onOpenList={(f) => navigate(`/sources/${f.source_id}/${f.list_id}`)}
        />
      ) : file.isError ? (
        <ErrorState error={file.error} onRetry={() => file.refetch()} />
      ) : (
        <LoadingState rows={5} />
      )}
    </Modal>
  );
}
