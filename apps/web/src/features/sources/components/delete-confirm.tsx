import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useDeleteLists } from '../api/delete-lists.ts';
import { useDeleteSources } from '../api/delete-sources.ts';

interface Props {
  kind: 'sources' | 'lists';
  targets: { id: number; name: string }[];
  onClose: () => void;
  onDeleted?: () => void;
}

/** Asks before deleting sources or lists (their leads go with them). */
export function DeleteConfirm({ kind, targets, onClose, onDeleted }: Props) {
  const { t } = useTranslation('sources');
  const sources = useDeleteSources();
  const lists = useDeleteLists();
  const mutation = kind === 'sources' ? sources : lists;
  const one = targets.length === 1;
  const message = one
    ? t(kind === 'sources' ? 'deleteSourceConfirm' : 'deleteListConfirm', { name: targets[0].name })
    : t(kind === 'sources' ? 'deleteSourcesConfirm' : 'deleteListsConfirm', { count: targets.length });

  const confirm = () =>
    mutation.mutate(
      targets.map((x) => x.id),
      {
        onSuccess: () => {
          notifySuccess(t(kind === 'sources' ? 'sourcesDeleted' : 'listsDeleted', { count: targets.length }));
          onClose();
          onDeleted?.();
        },
        onError: onClose,
      },
    );

  return (
    <ConfirmModal
      opened={targets.length > 0}
      title={t(kind === 'sources' ? 'deleteSourceTitle' : 'deleteListTitle', { count: targets.length })}
      message={message}
      confirmLabel={t('common:delete')}
      danger
      loading={mutation.isPending}
      onConfirm={confirm}
      onClose={onClose}
    />
  );
}
