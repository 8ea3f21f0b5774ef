import type { TProcess } from '@herald/shared/processes/processes.schemas';
import { ActionIcon, Button, Divider, Group, Indicator, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { IconActivity } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { useServerEvent } from '../../../lib/live-events.tsx';
import { useClearFinishedProcesses } from '../api/clear-finished-processes.ts';
import { processesQueryKey, useProcesses } from '../api/get-processes.ts';
import { ProcessItem } from './process-item.tsx';

const ACTIVE = new Set<TProcess['status']>(['queued', 'running', 'resolving']);

/** Header popover of the user's long jobs (imports, lookups, exports), kept live by events. */
export function ProcessesPopover() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const processes = useProcesses();
  const clear = useClearFinishedProcesses();

  useServerEvent('ProcessStatus', (process) => {
    if (!queryClient.getQueryData(processesQueryKey)) {
      // The list has not arrived yet: let it be read again rather than lose this change.
      void queryClient.invalidateQueries({ queryKey: processesQueryKey });
      return;
    }
    queryClient.setQueryData<{ data: TProcess[] }>(processesQueryKey, (old) => {
      if (!old) return old;
      const exists = old.data.some((p) => p.id === process.id);
      return { data: exists ? old.data.map((p) => (p.id === process.id ? process : p)) : [process, ...old.data] };
    });
  });

  const list = processes.data?.data ?? [];
  const running = list.filter((p) => ACTIVE.has(p.status)).length;
  const finished = list.length - running;

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
                <ProcessItem key={process.id} process={process} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
