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

export function LeadStatusBadge({ status, size = 'sm' }: { status: TLeadStatus; size?: 'sm' | 'md' | 'lg' }) {
  const { t } = useTranslation('leads');
  return (
    <Badge variant="light" color={STATUS_COLORS[status]} size={size} style={{ minWidth: 'max-content' }}>
      {t(`status.${status}`)}
    </Badge>
  );
}
