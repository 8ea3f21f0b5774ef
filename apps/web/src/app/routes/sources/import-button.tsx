import { Button } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAttributes } from '../../../features/attributes/api/get-attributes.ts';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { ImportModal } from '../../../features/imports/components/import-modal.tsx';
import { useCreateList } from '../../../features/sources/api/create-list.ts';
import { useCreateSource } from '../../../features/sources/api/create-source.ts';
import { useAllSourcesWithLists } from '../../../features/sources/api/get-all-sources-with-lists.ts';

/**
 * The Import button of the source and list screens: the import modals, given the team's sources
 * and lists to choose from (or create) and the attributes to map columns to.
 */
export function ImportButton({ preset }: { preset?: { sourceId: number; listId?: number } }) {
  const { t } = useTranslation('imports');
  const navigate = useNavigate();
  const allowed = usePermission('imports:create');
  const [opened, setOpened] = useState(false);
  const places = useAllSourcesWithLists(opened);
  const attributes = useAttributes();
  const createSource = useCreateSource();
  const createList = useCreateList();

  if (!allowed) return null;
  return (
    <>
      <Button variant="light" leftSection={<IconFileImport size={16} aria-hidden />} onClick={() => setOpened(true)}>
        {t('import')}
      </Button>
      <ImportModal
        opened={opened}
        onClose={() => setOpened(false)}
        places={places.data?.data ?? []}
        placesLoading={places.isPending}
        preset={preset}
        attributes={attributes}
        createSource={(name) => createSource.mutateAsync({ name })}
        createList={(sourceId, name) => createList.mutateAsync({ sourceId, name, status: 'active' })}
        onOpenList={(file) => navigate(`/sources/${file.source_id}/${file.list_id}`)}
      />
    </>
  );
}
