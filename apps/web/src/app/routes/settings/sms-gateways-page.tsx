import { Divider, Stack } from '@mantine/core';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { GatewaysPanel } from '../../../features/gateways/components/gateways-panel.tsx';
import { FrequencyCapForm } from '../../../features/settings/components/frequency-cap-form.tsx';

/** `/settings` (its first tab): the team's SMS gateways, and how often campaigns may reach one phone. */
export function SmsGatewaysPage() {
  const canRead = usePermission('campaigns:read');
  const canEdit = usePermission('settings:manage');
  return (
    <Stack>
      <GatewaysPanel />
      {canRead && (
        <>
          <Divider />
          <FrequencyCapForm canEdit={canEdit} />
        </>
      )}
    </Stack>
  );
}
