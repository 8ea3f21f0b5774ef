import type { TLookup } from '@herald/shared/lookups/lookups.schemas';
import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../../lib/i18n.ts';

const COLORS = { 0: 'gray', 1: 'blue', 2: 'yellow', 3: 'teal' } as const;

/** 0 pending, 1 running, 2 paused, 3 completed; a pause the engine made says why on hover. */
export function LookupStatusBadge({ lookup }: { lookup: Pick<TLookup, 'status' | 'reason'> }) {
  const { t } = useTranslation('lookups');
  const badge = (
    <Badge
      variant="light"
      color={COLORS[lookup.status]}
      // max-content: its label hides overflow, so without it the table may squeeze the badge to its padding.
      style={{ flexShrink: 0, overflow: 'visible', minWidth: 'max-content' }}
      data-lookup-status={lookup.status}
    >
      {t(`status.${lookup.status}`)}
    </Badge>
  );
  if (!lookup.reason) return badge;
  return (
    <Tooltip label={translateMessage({ code: lookup.reason })} multiline w={260}>
      {badge}
    </Tooltip>
  );
}
