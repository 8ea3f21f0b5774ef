import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { Modal } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { ImportFileStep, type ImportFileStepProps } from './import-file-step.tsx';
import { ImportProgressStep } from './import-progress-step.tsx';
import { MatchFormatStep } from './match-format-step.tsx';

type Step = { name: 'file' } | { name: 'match'; file: TImportFile } | { name: 'progress'; file: TImportFile };

interface Props
  extends Pick<ImportFileStepProps, 'places' | 'placesLoading' | 'preset' | 'createSource' | 'createList'> {
  opened: boolean;
  onClose: () => void;
  /** The attributes to map columns to: Match Format waits for them, or says why they did not come. */
  attributes: UseQueryResult<TLeadAttribute[]>;
  onOpenList?: (file: TImportFile) => void;
}

const TITLES = { file: 'importFile', match: 'matchFormat', progress: 'importProgress' } as const;
const SIZES = { file: 'lg', match: 'xl', progress: 'lg' } as const;

/** The spec's three import modals as the steps of one: import file → match format → import progress. */
export function ImportModal({ opened, onClose, attributes, onOpenList, ...fileStep }: Props) {
  const { t } = useTranslation('imports');
  const [step, setStep] = useState<Step>({ name: 'file' });
  // While a retry runs the query keeps its error: it shows as loading again.
  const attributesFailed = !attributes.data && attributes.isError && !attributes.isFetching;

  const close = () => {
    setStep({ name: 'file' });
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t(TITLES[step.name])}
      size={SIZES[step.name]}
      centered
      // A click beside the modal must not throw away a mapping in progress.
      closeOnClickOutside={step.name !== 'match'}
    >
      {step.name === 'file' && (
        <ImportFileStep {...fileStep} onUploaded={(file) => setStep({ name: 'match', file })} onCancel={close} />
      )}
      {step.name === 'match' && attributesFailed && (
        <ErrorState error={attributes.error} onRetry={() => attributes.refetch()} />
      )}
      {step.name === 'match' && !attributes.data && !attributesFailed && <LoadingState rows={5} />}
      {step.name === 'match' && attributes.data && (
        <MatchFormatStep
          file={step.file}
          attributes={attributes.data}
          onCancel={close}
          onStarted={(file) => {
            notifySuccess(t('started', { filename: file.client_original_name }));
            setStep({ name: 'progress', file });
          }}
        />
      )}
      {step.name === 'progress' && (
        <ImportProgressStep
          file={step.file}
          onClose={close}
          onOpenList={
            // Not offered on the screen of that very list.
            onOpenList && step.file.list_id !== fileStep.preset?.listId
              ? (file) => {
                  close();
                  onOpenList(file);
                }
              : undefined
          }
        />
      )}
    </Modal>
  );
}
