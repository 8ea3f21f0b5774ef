import type { TSegment } from '@herald/shared/segments/segments.schemas';
import { Button, Group, Menu } from '@mantine/core';
import { IconCopy, IconDots, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifySuccess } from '../../../lib/notify.ts';
import { useActionsLocked } from '../../../lib/subscription-gate.tsx';
import { useCloneSegment } from '../api/clone-segment.ts';
import { useCreateChildSegment } from '../api/create-child-segment.ts';
import { useUpdateSegment } from '../api/update-segment.ts';
import { DeleteSegmentConfirm } from './delete-segment-confirm.tsx';
import { SegmentModal, type SegmentModalMode } from './segment-modal.tsx';

interface Props {
  segment: TSegment;
  /** The page of the segment's parent, where deleting returns (`/` for an audience). */
  backTo: string;
  /** Where a new child segment or a duplicate opens. */
  hrefOf: (segment: TSegment) => string;
  /** Child segments are created from the audience's pages. */
  canCreateChild: boolean;
}

/** Edit, duplicate, delete and create segment, with their modals. */
export function SegmentActions({ segment, backTo, hrefOf, canCreateChild }: Props) {
  const { t } = useTranslation('segments');
  const navigate = useNavigate();
  const update = useUpdateSegment();
  const clone = useCloneSegment();
  const createChild = useCreateChildSegment();
  const [mode, setModeState] = useState<SegmentModalMode | null>(null);
  // The last mode stays while the modal closes, so its title does not flip during the animation.
  const [shown, setShown] = useState<SegmentModalMode>('edit');
  const setMode = (next: SegmentModalMode | null) => {
    if (next) setShown(next);
    setModeState(next);
  };
  const [deleting, setDeleting] = useState(false);
  const locked = useActionsLocked();

  const submit = async (values: { name: string; ignore_new_leads: boolean }) => {
    if (mode === 'edit') {
      await update.mutateAsync({ id: segment.id, ...values });
      notifySuccess(t('saved'));
    } else if (mode === 'duplicate') {
      const copy = await clone.mutateAsync({ id: segment.id, name: values.name });
      notifySuccess(t('duplicated', { name: copy.name }));
      navigate(hrefOf(copy));
    } else if (mode === 'createChild') {
      const child = await createChild.mutateAsync({ parentId: segment.id, ...values });
      notifySuccess(t('segmentCreated', { name: child.name }));
      navigate(hrefOf(child));
    }
    setMode(null);
  };

  return (
    <>
      <Group gap="xs">
        {canCreateChild && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setMode('createChild')}>
            {t('createSegment')}
          </Button>
        )}
        <Button variant="default" leftSection={<IconPencil size={16} aria-hidden />} onClick={() => setMode('edit')}>
          {t('edit')}
        </Button>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button variant="default" px="xs" aria-label={t('moreActions')}>
              <IconDots size={18} aria-hidden />
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              leftSection={<IconCopy size={16} aria-hidden />}
              onClick={() => setMode('duplicate')}
              disabled={locked}
            >
              {t('duplicate')}
            </Menu.Item>
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => setDeleting(true)}
              disabled={locked}
            >
              {t('delete')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      <SegmentModal
        opened={mode !== null}
        mode={shown}
        initial={shown === 'createChild' ? undefined : segment}
        onSubmit={submit}
        onClose={() => setMode(null)}
      />
      <DeleteSegmentConfirm
        target={deleting ? segment : null}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate(backTo, { replace: true })}
      />
    </>
  );
}
