import type { TLeadStatus } from '@herald/shared/leads/leads.schemas';
import { Button, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { BULK_STATUSES, type TBulkStatus, useSetLeadsStatus } from '../api/set-leads-status.ts';
import { notifyMessages } from './notify-messages.ts';

/** Set status: every status a change may set except the current one (spec section 4). */
export function StatusMenu({
  ids,
  current,
  onDone,
}: {
  ids: number[];
  current: TLeadStatus | undefined;
  onDone?: () => void;
}) {
  const { t } = useTranslation('leads');
  const setStatus = useSetLeadsStatus();
  const choices = BULK_STATUSES.filter((s) => s !== current);
  const pick = (status: TBulkStatus) =>
    setStatus.mutate(
      { ids, status },
      {
        onSuccess: (result) => {
          notifyMessages(result);
          onDone?.();
        },
      },
    );
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          rightSection={<IconChevronDown size={14} aria-hidden />}
          loading={setStatus.isPending}
          disabled={ids.length === 0}
        >
          {t('setStatus')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {choices.map((status) => (
          <Menu.Item key={status} onClick={() => pick(status)}>
            {t(`status.${status}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
