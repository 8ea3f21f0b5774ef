import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { Modal } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingState } from '../../../components/page-states.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { ImportFileStep, type ImportFileStepProps } from './import-file-step.tsx';
import { ImportProgressStep } from './import-progress-step.tsx';
import { MatchFormatStep } from './match-format-step.tsx';

type Step = { name: 'file' } | { name: 'match'; file: TImportFile } | { name: 'progress'; file: TImportFile };

interface Props
  extends Pick<ImportFileStepProps, 'places' | 'placesLoading' | 'preset' | 'createSource' | 'createList'> {
  opened: boolean;
  onClose: () => void;
  attributes: TLeadAttribute[];
  onOpenList?: (file: TImportFile) => void;
}

const TITLES = { file: 'importFile', match: 'matchFormat', progress: 'importProgress' } as const;
const SIZES = { file: 'lg', match: 'xl', progress: 'lg' } as const;

/** The spec's three import modals as the steps of one: import file → match format → import progress. */
export function ImportModal({ opened, onClose, attributes, onOpenList, ...fileStep }: Props) {
  const { t } = useTranslation('imports');
  const [step, setStep] = useState<Step>({ name: 'file' });

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
      {/* Every team has the Phone and Email attributes: none means they are still loading. */}
      {step.name === 'match' && attributes.length === 0 && <LoadingState rows={5} />}
      {step.name === 'match' && attributes.length > 0 && (
        <MatchFormatStep
          file={step.file}
          attributes={attributes}
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
