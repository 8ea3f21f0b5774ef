import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { IconArrowRight, IconPlayerPlay, IconPlayerStop, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCancelImport } from '../api/cancel-import.ts';
import { useResumeImport } from '../api/resume-import.ts';
import { importActionsOf, phaseOf } from '../import-phase.ts';

type ActionFile = Pick<TImportFile, 'id' | 'client_original_name' | 'status' | 'stage' | 'cancellable' | 'resumable'>;

/** What a resume answers when it has started the import again (else the import had ended otherwise). */
const RESUMED = ['waiting', 'pending', 'processing'];

interface Props {
  file: ActionFile;
  /** In a table row: icons, whose names say which file they act on. */
  compact?: boolean;
  /** Where an upload left at Match Format is taken up again (the caller holds its modal). */
  onContinue?: () => void;
}

/**
 * Resume and Cancel (Continue and Discard for an upload never run) of one import, with the cancel's
 * confirmation: in the progress modal, a history row and the file's page alike. Buttons only; the
 * caller lays them out.
 */
export function ImportActions({ file, compact, onContinue }: Props) {
  const { t } = useTranslation('imports');
  const cancel = useCancelImport();
  const resume = useResumeImport();
  const [confirming, setConfirming] = useState(false);
  const actions = importActionsOf(file);
  const name = file.client_original_name;
  const texts = actions.cancel === 'discard' ? 'discard' : 'cancel';
  // A failed import is not importing: "Keep importing" would read as a resume.
  const keep = texts === 'discard' ? 'discard.keep' : phaseOf(file) === 'failed' ? 'cancel.keepFailed' : 'cancel.keep';

  const onResume = () =>
    resume.mutate(file.id, {
      onSuccess: (sync) =>
        RESUMED.includes(sync.status)
          ? notifySuccess(t('resumed', { name }))
          : notifyError(t('resumeRefused', { name })),
    });
  const onCancel = () =>
    cancel.mutate(file.id, {
      onSuccess: (ended) =>
        notifySuccess(t(ended.status === 'cancelled' ? 'discard.done' : 'cancel.started', { name })),
      onSettled: () => setConfirming(false),
    });

  return (
    <>
      {actions.continue && onContinue && (
        <Action
          compact={compact}
          label={t('continue')}
          named={t('continueNamed', { name })}
          icon={<IconArrowRight size={18} aria-hidden />}
          variant="light"
          onClick={onContinue}
        />
      )}
      {actions.resume && (
        <Action
          compact={compact}
          label={t('resume')}
          named={t('resumeNamed', { name })}
          icon={<IconPlayerPlay size={18} aria-hidden />}
          variant="light"
          loading={resume.isPending}
          onClick={onResume}
        />
      )}
      {actions.cancel && (
        <Action
          compact={compact}
          label={t(`${texts}.button`)}
          named={t(`${texts}.buttonNamed`, { name })}
          icon={texts === 'discard' ? <IconTrash size={18} aria-hidden /> : <IconPlayerStop size={18} aria-hidden />}
          variant="subtle"
          color="red"
          onClick={() => setConfirming(true)}
        />
      )}
      <ConfirmModal
        opened={confirming}
        title={t(`${texts}.title`)}
        message={t(`${texts}.text`)}
        confirmLabel={t(`${texts}.confirm`)}
        cancelLabel={t(keep)}
        danger
        loading={cancel.isPending}
        onConfirm={onCancel}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}

interface ActionProps {
  compact?: boolean;
  label: string;
  /** The name of the icon, which a row needs: which file it acts on. */
  named: string;
  icon: ReactNode;
  variant: string;
  color?: string;
  loading?: boolean;
  onClick: () => void;
}

/** A button, or in a table row an icon with its label as a tooltip (as the team's invitations have). */
function Action({ compact, label, named, icon, ...button }: ActionProps) {
  if (!compact) return <Button {...button}>{label}</Button>;
  return (
    <Tooltip label={label}>
      <ActionIcon {...button} aria-label={named}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}
