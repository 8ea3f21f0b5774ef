import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useDeleteSegment } from '../api/delete-segment.ts';

interface Props {
  target: { id: number; name: string } | null;
  onClose: () => void;
  onDeleted: () => void;
}

/** Asks before deleting an audience or segment (its child segments go with it). */
export function DeleteSegmentConfirm({ target, onClose, onDeleted }: Props) {
  const { t } = useTranslation('segments');
  const mutation = useDeleteSegment();
  const confirm = () => {
    if (!target) return;
    mutation.mutate(target.id, {
      onSuccess: () => {
        notifySuccess(t('deleted', { name: target.name }));
        onClose();
        onDeleted();
      },
      onError: onClose,
    });
  };
  return (
    <ConfirmModal
      opened={target !== null}
      title={t('deleteTitle')}
      message={t('deleteConfirm', { name: target?.name ?? '' })}
      confirmLabel={t('common:delete')}
      danger
      loading={mutation.isPending}
      onConfirm={confirm}
      onClose={onClose}
    />
  );
}
