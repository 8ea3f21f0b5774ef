import { BULK_LEAD_STATUSES, LEAD_STATUSES, type TLeadStatus } from '@herald/shared/leads/leads.schemas';
import { Button, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { useActionsLocked } from '../../../lib/subscription-gate.tsx';
import { useSetLeadsStatus } from '../api/set-leads-status.ts';
import { notifyMessages } from './notify-messages.ts';

/**
 * Set status: every status except the current one for one lead, the bulk statuses for several
 * (spec section 4). Blacklisting stops messages to the leads, so it asks first, like every
 * destructive action.
 */
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
  const [confirming, setConfirming] = useState(false);
  const locked = useActionsLocked();
  const allowed: readonly TLeadStatus[] = ids.length === 1 ? LEAD_STATUSES : BULK_LEAD_STATUSES;
  const choices = allowed.filter((s) => s !== current);
  const apply = (status: TLeadStatus) =>
    setStatus.mutate(
      { ids, status },
      {
        onSuccess: (result) => {
          notifyMessages(result);
          setConfirming(false);
          onDone?.();
        },
        onError: () => setConfirming(false),
      },
    );
  const pick = (status: TLeadStatus) => (status === 'blacklisted' ? setConfirming(true) : apply(status));
  return (
    <>
      <ConfirmModal
        opened={confirming}
        title={t('blacklistConfirmTitle')}
        message={t('blacklistConfirm', { count: ids.length })}
        confirmLabel={t('status.blacklisted')}
        danger
        loading={setStatus.isPending}
        onConfirm={() => apply('blacklisted')}
        onClose={() => setConfirming(false)}
      />
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
            <Menu.Item key={status} onClick={() => pick(status)} disabled={locked}>
              {t(`status.${status}`)}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </>
  );
}
