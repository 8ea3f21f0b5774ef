import type { TLeadStatus } from '@herald/shared/leads/leads.schemas';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export const STATUS_COLORS: Record<TLeadStatus, string> = {
  active: 'teal',
  pending: 'yellow',
  flagged: 'orange',
  blacklisted: 'dark',
  inactive: 'gray',
};

/**
 * `wrap`: the chip may fold at its spaces (a table's status column then takes its longest word, not
 * "У чорному списку" whole), so that a row with the team's own attributes keeps within a laptop.
 */
export function LeadStatusBadge({
  status,
  size = 'sm',
  wrap = false,
}: {
  status: TLeadStatus;
  size?: 'sm' | 'md' | 'lg';
  wrap?: boolean;
}) {
  const { t } = useTranslation('leads');
  return (
    <Badge
      variant="light"
      color={STATUS_COLORS[status]}
      size={size}
      style={wrap ? undefined : { minWidth: 'max-content' }}
      styles={
        wrap
          ? {
              root: { height: 'auto', paddingBlock: 2 },
              label: { whiteSpace: 'normal', overflow: 'visible', lineHeight: 1.3 },
            }
          : undefined
      }
    >
      {t(`status.${status}`)}
    </Badge>
  );
}
