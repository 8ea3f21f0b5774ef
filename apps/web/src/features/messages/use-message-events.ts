import { useQueryClient } from '@tanstack/react-query';
import { useServerEvent } from '../../lib/live-events.tsx';

/**
 * Keeps lead Timelines live: a message's status moved, or the lead replied (`MessageStatus`), and
 * that lead's Timeline (and the lead, whose status an opt-out changes) is fetched again.
 */
export function useMessageEvents() {
  const queries = useQueryClient();
  useServerEvent('MessageStatus', (event) => {
    if (event.lead_id === null) return;
    void queries.invalidateQueries({ queryKey: ['leads', 'one', event.lead_id] });
  });
}
