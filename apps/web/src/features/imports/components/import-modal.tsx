import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { Modal } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImportFileStep, type ImportFileStepProps } from './import-file-step.tsx';
import { type ImportRunStep, ImportRunSteps } from './import-run-steps.tsx';

type Step = { name: 'file' } | ImportRunStep;

interface Props
  extends Pick<ImportFileStepProps, 'places' | 'placesLoading' | 'preset' | 'createSource' | 'createList'>,
    Pick<Parameters<typeof ImportRunSteps>[0], 'attributes'> {
  opened: boolean;
  onClose: () => void;
  onOpenList?: (file: TImportFile) => void;
}

export const IMPORT_MODAL_TITLES = { file: 'importFile', match: 'matchFormat', progress: 'importProgress' } as const;
export const IMPORT_MODAL_SIZES = { file: 'lg', match: 'xl', progress: 'lg' } as const;

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
      title={t(IMPORT_MODAL_TITLES[step.name])}
      size={IMPORT_MODAL_SIZES[step.name]}
      centered
      // Closed by Cancel, × or Escape only: a click beside it would throw away a mapping in progress.
      closeOnClickOutside={false}
    >
      {step.name === 'file' ? (
        <ImportFileStep {...fileStep} onUploaded={(file) => setStep({ name: 'match', file })} onCancel={close} />
      ) : (
        <ImportRunSteps
          step={step}
          attributes={attributes}
          onProgress={(file) => setStep({ name: 'progress', file })}
          onClose={close}
          // Not offered on the screen of that very list.
          onOpenList={onOpenList && step.file.list_id !== fileStep.preset?.listId ? onOpenList : undefined}
        />
      )}
    </Modal>
  );
}
