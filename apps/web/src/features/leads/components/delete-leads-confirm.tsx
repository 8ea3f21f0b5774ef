import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useDeleteLeads } from '../api/delete-leads.ts';

/** Asks before deleting one or more leads. */
export function DeleteLeadsConfirm({
  ids,
  onClose,
  onDeleted,
}: {
  ids: number[];
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const { t } = useTranslation('leads');
  const remove = useDeleteLeads();
  const confirm = () =>
    remove.mutate(ids, {
      onSuccess: () => {
        notifySuccess(t('leadsDeleted', { count: ids.length }));
        onClose();
        onDeleted?.();
      },
      onError: onClose,
    });
  return (
    <ConfirmModal
      opened={ids.length > 0}
      title={t('deleteLeadsTitle', { count: ids.length })}
      message={
        ids.length === 1 ? t('deleteLeadConfirm', { id: ids[0] }) : t('deleteLeadsConfirm', { count: ids.length })
      }
      confirmLabel={t('common:delete')}
      danger
      loading={remove.isPending}
      onConfirm={confirm}
      onClose={onClose}
    />
  );
}
