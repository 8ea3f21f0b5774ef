import { isImportFailure, type TImportFile } from '@herald/shared/imports/imports.schemas';
import { Anchor } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useServerEvent } from '../../../lib/live-events.tsx';
import { notifyError } from '../../../lib/notify.ts';
import { importQueryKey } from '../api/get-import.ts';
import { applyImportEvent } from '../import-phase.ts';

/**
 * Mounted once in the shell: folds `ImportStatus` events into the import being watched, and when
 * an import ends refreshes what it changed (lead tables, source and list counts, attributes,
 * history; a cancelled import has taken its leads back). A failure is announced wherever the user
 * is ('Import failed!'), and so is a completed one that refused rows: how many, and a link to them.
 */
export function ImportEvents() {
  const { t } = useTranslation('imports');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useServerEvent('ImportStatus', (event) => {
    queryClient.setQueryData<TImportFile>(importQueryKey(event.id), (old) =>
      old ? applyImportEvent(old, event) : old,
    );
    const ended = event.stage === 'end_resolve_duplicates' || event.stage === 'failed' || event.stage === 'cancelled';
    if (event.stage === 'parse_finished' || event.stage === 'start_resolve_duplicates' || ended) {
      void queryClient.invalidateQueries({ queryKey: ['imports'], predicate: (q) => q.queryKey[1] !== 'one' });
    }
    if (!ended) return;
    // The final counters (unique, duplicates resolved) are not in the event: read them once, unless
    // the import went with its list (it would only answer 404 over the failure the event told).
    if (event.error_code !== 'import_list_deleted') {
      void queryClient.invalidateQueries({ queryKey: importQueryKey(event.id) });
    }
    if (event.stage === 'failed') {
      // Why, where the user is: a plan's limit above all asks them to act (the spec's error alert).
      const why = isImportFailure(event.error_code) ? t(`failure.${event.error_code}`) : undefined;
      notifyError(t('failed'), why ? `${event.name}: ${why}` : event.name);
      return;
    }
    const failed = event.leads_failed ?? 0;
    if (event.stage === 'end_resolve_duplicates' && failed > 0) {
      const id = `import-failed-rows-${event.id}`;
      notifications.show({
        id,
        color: 'yellow',
        autoClose: false,
        title: t('completedWithFailures', { name: event.name, count: failed }),
        message: (
          <Anchor
            component="button"
            onClick={() => {
              notifications.hide(id);
              void navigate(`/settings/import-history/${event.id}`);
            }}
          >
            {t('openFailedRows')}
          </Anchor>
        ),
      });
    }
    void queryClient.invalidateQueries({ queryKey: ['leads'] });
    void queryClient.invalidateQueries({ queryKey: ['sources'] });
    void queryClient.invalidateQueries({ queryKey: ['attributes'] });
  });
  return null;
}
