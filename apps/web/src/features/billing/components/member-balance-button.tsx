import type { TTeamMember } from '@herald/shared/team/team.schemas';
import { Button, Tooltip } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * A member row's Share balance button. Disabled while the sharer's own balance is zero or less
 * (spec section 6), with the reason on hover.
 */
export function MemberBalanceButton({
  member,
  ownBalance,
  onShare,
}: {
  member: TTeamMember;
  ownBalance: number;
  onShare: (member: TTeamMember) => void;
}) {
  const { t } = useTranslation('billing');
  const disabled = ownBalance <= 0;
  const button = (
    <Button
      size="compact-sm"
      variant="light"
      leftSection={<IconCoins size={14} aria-hidden />}
      disabled={disabled}
      onClick={() => onShare(member)}
      aria-label={t('share.button', { name: member.name })}
    >
      {t('share.short')}
    </Button>
  );
  return disabled ? (
    <Tooltip label={t('share.noBalance')}>
      <span>{button}</span>
    </Tooltip>
  ) : (
    button
  );
}
