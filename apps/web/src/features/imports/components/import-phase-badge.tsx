import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ImportPhase } from '../import-phase.ts';

export const PHASE_COLORS: Record<ImportPhase, string> = {
  waiting: 'gray',
  running: 'blue',
  resolving: 'grape',
  completed: 'teal',
  failing: 'red',
  failed: 'red',
  cancelling: 'orange',
  cancelled: 'gray',
};

/** Running, Resolving, Completed, Failed (Not started for an upload never run; Failing, Cancelling, Cancelled). */
export function ImportPhaseBadge({ phase }: { phase: ImportPhase }) {
  const { t } = useTranslation('imports');
  return (
    <Badge variant="light" color={PHASE_COLORS[phase]} size="sm" style={{ minWidth: 'max-content' }}>
      {t(`phase.${phase}`)}
    </Badge>
  );
}
