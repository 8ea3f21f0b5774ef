import { lookupProcessOf, type TLookupProcessParams } from '@herald/shared/lookups/lookups.schemas';
import type { TProcess } from '@herald/shared/processes/processes.schemas';
import { Anchor, Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useMoveLookups } from '../api/lookup-moves.ts';

/**
 * Under a lookup's process in the header popover: stop it while it runs, start it again when
 * paused (it continues with the phones left), and the way to the lookups' screen.
 */
export function LookupProcessActions({ process }: { process: TProcess }) {
  const { t } = useTranslation('lookups');
  const move = useMoveLookups();
  const lookup: TLookupProcessParams | null = lookupProcessOf(process);
  if (!lookup) return null;
  const to = process.status === 'running' ? 2 : process.status === 'paused' ? 1 : null;
  return (
    <Group gap="xs" justify="space-between">
      <Anchor component={Link} to="/lookup-management" size="xs">
        {t('open')}
      </Anchor>
      {to !== null && (
        <Button
          size="compact-xs"
          variant="light"
          color={to === 2 ? 'yellow' : 'indigo'}
          loading={move.isPending}
          aria-label={t(to === 2 ? 'stopNamed' : 'startNamed', { name: process.title })}
          onClick={() =>
            move.mutate(
              { kind: 'status', id: lookup.lookup_id, status: to },
              { onSuccess: (answer) => notifySuccess(translateMessage(answer.message) ?? '') },
            )
          }
        >
          {t(to === 2 ? 'stop' : 'start')}
        </Button>
      )}
    </Group>
  );
}
