import { Anchor, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { translateMessage } from '../../../lib/i18n.ts';
import { useServerEvent } from '../../../lib/live-events.tsx';
import { applyLookups, LOOKUPS_KEY } from '../api/get-lookups.ts';
import { lookupName } from './lookups-table.tsx';

/**
 * Mounted once in the shell: each `LookupStatus` event (at each move, and once a second at most
 * while a lookup runs) puts the lookup's status, percent, count and time left in the table without
 * a refetch. When one finishes or pauses, the figures that lookups change elsewhere are read again:
 * the summary, the sources' and lists' verified and looked-up bars, and the leads' phone results.
 * When the balance of the user who started it paused it, that user is told wherever they are.
 */
export function LookupEvents({ userId }: { userId: number | undefined }) {
  const { t } = useTranslation('lookups');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useServerEvent('LookupStatus', (lookup) => {
    applyLookups(queryClient, [lookup]);
    if (lookup.status === 1) return;
    void queryClient.invalidateQueries({ queryKey: [...LOOKUPS_KEY, 'status'] });
    void queryClient.invalidateQueries({ queryKey: ['sources'] });
    void queryClient.invalidateQueries({ queryKey: ['leads'] });
    if (lookup.status !== 2 || lookup.reason !== 'balance_not_enough_lookup') return;
    if (userId === undefined || lookup.launched_by !== userId) return;
    const id = `lookup-balance-paused-${lookup.id}`;
    notifications.show({
      id,
      color: 'yellow',
      autoClose: false,
      title: translateMessage({ code: 'balance_not_enough_lookup' }),
      message: (
        <>
          <Text size="sm">{lookupName(lookup)}</Text>
          <Anchor
            component="button"
            size="sm"
            onClick={() => {
              notifications.hide(id);
              void navigate('/lookup-management');
            }}
          >
            {t('open')}
          </Anchor>
        </>
      ),
    });
  });
  return null;
}
