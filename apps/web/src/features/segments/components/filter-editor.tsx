import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TSegment } from '@herald/shared/segments/segments.schemas';
import type { TSourceWithLists } from '@herald/shared/sources/sources.schemas';
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDeviceFloppy, IconPlus } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useSaveSegmentFilters } from '../api/save-segment-filters.ts';
import { FilterRowEditor } from './filter-row-editor.tsx';
import { conditionsOf, type FilterRow, newRow, rowsFromFilters, sameConditions } from './filter-rows.ts';

interface Props {
  segment: TSegment;
  attributes: TLeadAttribute[];
  canManage: boolean;
  /** The team's sources with their lists, for the source and list conditions (an audience's only). */
  sources: UseQueryResult<{ data: TSourceWithLists[] }>;
}

/**
 * The filter editor of an audience or segment. Rows are checked by the shared condition schema;
 * only valid rows are sent, and the count and table refresh when the save lands.
 */
export function FilterEditor({ segment, attributes, canManage, sources }: Props) {
  const { t } = useTranslation('segments');
  const save = useSaveSegmentFilters();
  const [saved, setSaved] = useState(() => rowsFromFilters(segment.filters));
  const [rows, setRows] = useState<FilterRow[]>(saved);
  const [tried, setTried] = useState(false);
  const [seen, setSeen] = useState(segment.filters);
  const hasParent = segment.parent_segment_id !== null;

  // Another save (or a refetch) changed the filters: show what the server holds.
  if (seen !== segment.filters) {
    setSeen(segment.filters);
    const fresh = rowsFromFilters(segment.filters);
    if (!sameConditions(fresh, saved)) {
      setSaved(fresh);
      setRows(fresh);
    }
  }

  const { conditions, invalidRows, listError } = conditionsOf(rows);
  const dirty = !sameConditions(rows, saved);
  const disabled = !canManage || save.isPending;

  const submit = () => {
    setTried(true);
    // First the incomplete rows are pointed out; saving again sends only the complete ones.
    if (listError || (invalidRows > 0 && !tried)) return;
    save.mutate(
      { id: segment.id, filters: conditions },
      {
        onSuccess: (next) => {
          const fresh = rowsFromFilters(next.filters);
          setSaved(fresh);
          setSeen(next.filters);
          setRows(fresh);
          setTried(false);
          notifySuccess(invalidRows > 0 ? t('filtersSavedSkipped', { count: invalidRows }) : t('filtersSaved'));
        },
      },
    );
  };

  if (!hasParent && sources.isPending) return <LoadingState rows={2} />;
  if (!hasParent && sources.isError) return <ErrorState error={sources.error} onRetry={() => sources.refetch()} />;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={t('filters')}>
      <Group justify="space-between" mb="sm">
        <Title order={4}>{t('filters')}</Title>
        {hasParent && (
          <Text size="xs" c="dimmed">
            {t('narrowsParent', { name: segment.parent?.name ?? '' })}
          </Text>
        )}
      </Group>
      <Stack gap="sm">
        {rows.length === 0 && (
          <Text size="sm" c="dimmed">
            {t(hasParent ? 'noFiltersChild' : 'noFilters')}
          </Text>
        )}
        {rows.map((row, index) => (
          <FilterRowEditor
            key={row.key}
            row={row}
            rows={rows}
            index={index}
            attributes={attributes}
            sources={sources.data?.data ?? []}
            hasParent={hasParent}
            disabled={disabled}
            showError={tried}
            onChange={(next) => setRows((all) => all.map((r) => (r.key === row.key ? next : r)))}
            onRemove={() => setRows((all) => all.filter((r) => r.key !== row.key))}
          />
        ))}
        {tried && !listError && invalidRows > 0 && (
          <Alert color="yellow" p="xs">
            {t('incompleteRows', { count: invalidRows })}
          </Alert>
        )}
        {tried && listError && (
          <Alert color="red" role="alert" p="xs">
            {translateMessage(listError)}
          </Alert>
        )}
        {canManage && (
          <Group justify="space-between" gap="xs">
            <Button
              variant="default"
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setRows((all) => [...all, newRow()])}
              disabled={disabled}
            >
              {t('addCondition')}
            </Button>
            <Group gap="xs">
              {dirty && (
                <Button
                  variant="subtle"
                  color="gray"
                  onClick={() => {
                    setRows(saved);
                    setTried(false);
                  }}
                  disabled={save.isPending}
                >
                  {t('discard')}
                </Button>
              )}
              <Button
                leftSection={<IconDeviceFloppy size={16} aria-hidden />}
                onClick={submit}
                loading={save.isPending}
                disabled={!dirty}
              >
                {t('saveFilters')}
              </Button>
            </Group>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
