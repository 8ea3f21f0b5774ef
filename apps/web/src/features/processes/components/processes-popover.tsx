import {
  ACTIVE_PROCESS_STATUSES,
  FINISHED_PROCESS_STATUSES,
  type TProcess,
} from '@herald/shared/processes/processes.schemas';
import { ActionIcon, Button, Divider, Group, Indicator, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { IconActivity } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { useServerEvent } from '../../../lib/live-events.tsx';
import { useClearFinishedProcesses } from '../api/clear-finished-processes.ts';
import { processesQueryKey, useProcesses } from '../api/get-processes.ts';
import { ProcessItem } from './process-item.tsx';

const ACTIVE = new Set<TProcess['status']>(ACTIVE_PROCESS_STATUSES);
// A paused process has not ended: Clear leaves it, as the server does.
const FINISHED = new Set<TProcess['status']>(FINISHED_PROCESS_STATUSES);

/** The list with `process` in it, unless the list already holds a newer state of it. */
function mergeProcess(list: TProcess[], process: TProcess): TProcess[] {
  const current = list.find((p) => p.id === process.id);
  if (!current) return [process, ...list];
  if (current.updated_at > process.updated_at) return list;
  return list.map((p) => (p.id === process.id ? process : p));
}

/**
 * Header popover of the user's long jobs (imports, lookups, exports), kept live by events.
 * `renderExtra`: what the app adds under a process from other features (an export's download).
 */
export function ProcessesPopover({ renderExtra }: { renderExtra?: (process: TProcess) => React.ReactNode }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const processes = useProcesses();
  const clear = useClearFinishedProcesses();

  // An event can arrive while the first list is still on its way, and that answer may predate it
  // (an in-flight fetch is reused, not restarted): keep such events and apply them once it lands.
  const early = useRef<TProcess[]>([]);
  const apply = (changes: TProcess[]) =>
    queryClient.setQueryData<{ data: TProcess[] }>(processesQueryKey, (old) =>
      old ? { data: changes.reduce(mergeProcess, old.data) } : old,
    );
  useServerEvent('ProcessStatus', (process) => {
    if (queryClient.getQueryData(processesQueryKey)) apply([process]);
    else early.current.push(process);
  });
  useEffect(() => {
    if (!processes.data || early.current.length === 0) return;
    const changes = early.current;
    early.current = [];
    apply(changes);
  });

  const list = processes.data?.data ?? [];
  const running = list.filter((p) => ACTIVE.has(p.status)).length;
  const finished = list.filter((p) => FINISHED.has(p.status)).length;

  return (
    <Popover position="bottom-end" width={360} shadow="md" withinPortal>
      <Popover.Target>
        <Indicator label={running} size={16} disabled={running === 0} offset={4} color="indigo">
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('processes.title')}>
            <IconActivity size={20} aria-hidden />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown>
        <Group justify="space-between" mb="xs">
          <Text fw={600}>{t('processes.title')}</Text>
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => clear.mutate()}
            loading={clear.isPending}
            disabled={finished === 0}
          >
            {t('processes.clear')}
          </Button>
        </Group>
        <Divider mb="xs" />
        {processes.isPending ? (
          <LoadingState rows={2} />
        ) : processes.isError ? (
          <ErrorState error={processes.error} onRetry={() => processes.refetch()} />
        ) : list.length === 0 ? (
          <EmptyState text={t('processes.empty')} />
        ) : (
          <ScrollArea.Autosize mah={360}>
            <Stack gap="sm">
              {list.map((process) => (
                <ProcessItem key={process.id} process={process} extra={renderExtra?.(process)} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
