import type { TSmsTemplate } from '@herald/shared/templates/templates.schemas';
import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { SearchInput } from '../../../components/search-input.tsx';
import { TablePager } from '../../../components/table-pager.tsx';
import { useAttributes } from '../../../features/attributes/api/get-attributes.ts';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { useDeleteTemplate } from '../../../features/templates/api/delete-template.ts';
import { useTemplates } from '../../../features/templates/api/get-templates.ts';
import { TemplateFormModal } from '../../../features/templates/components/template-form-modal.tsx';
import { TemplatesTable } from '../../../features/templates/components/templates-table.tsx';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { attributeLabel } from '../../../lib/attribute-label.ts';

/** `/sms-templates`: the team's templates and the defaults; add, edit on row click, delete. */
export function SmsTemplatesPage() {
  const { t } = useTranslation('templates');
  const canManage = usePermission('templates:manage');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 500);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(15);
  const templates = useTemplates({ page, limit, search: debounced || undefined });
  const attributes = useAttributes();
  const remove = useDeleteTemplate();
  const [editing, setEditing] = useState<TSmsTemplate | null>(null);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<TSmsTemplate | null>(null);
  const rows = templates.data?.data ?? [];
  const meta = templates.data?.meta;

  // The attributes a message can name, and the link (spec: the list gets an extra 'Link' entry).
  const placeholders = useMemo(
    () => [
      ...(attributes.data ?? []).map((a) => ({ label: attributeLabel(a), tag: a.slug })),
      { label: t('composer.link'), tag: 'link' },
    ],
    [attributes.data, t],
  );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('title')}</Title>
        {canManage && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
            {t('add')}
          </Button>
        )}
      </Group>
      <Paper withBorder radius="md" p="md">
        <Stack>
          <SearchInput
            value={search}
            onChange={(v) => {
              setSearch(v);
              setPage(1);
            }}
          />
          {templates.isPending ? (
            <LoadingState rows={5} />
          ) : templates.isError ? (
            <ErrorState error={templates.error} onRetry={() => templates.refetch()} />
          ) : rows.length === 0 ? (
            <EmptyState text={t('empty')} />
          ) : (
            <TemplatesTable rows={rows} canManage={canManage} onEdit={setEditing} onDelete={setDeleting} />
          )}
          {meta && meta.total > 0 && (
            <TablePager
              page={meta.current_page}
              lastPage={meta.last_page}
              total={meta.total}
              limit={limit}
              onPage={setPage}
              onLimit={(l) => {
                setLimit(l);
                setPage(1);
              }}
            />
          )}
        </Stack>
      </Paper>
      <TemplateFormModal
        opened={adding || editing !== null}
        template={editing}
        placeholders={placeholders}
        onClose={() => {
          setAdding(false);
          setEditing(null);
        }}
      />
      <ConfirmModal
        opened={deleting !== null}
        title={t('deleteTitle')}
        message={t('deleteConfirm', { name: deleting?.name ?? '' })}
        confirmLabel={t('common:delete')}
        danger
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => notifySuccess(translateMessage('template_deleted') ?? ''),
            onSettled: () => setDeleting(null),
          })
        }
      />
    </Stack>
  );
}
