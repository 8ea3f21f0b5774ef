import { Group, Radio } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { INVITABLE_ROLES, type TInvitableRole } from '../invitable-roles.ts';

export function RoleRadioGroup({
  value,
  onChange,
  error,
}: {
  value: TInvitableRole;
  onChange: (role: TInvitableRole) => void;
  error?: string;
}) {
  const { t } = useTranslation('team');
  return (
    <Radio.Group label={t('role')} value={value} onChange={(v) => onChange(v as TInvitableRole)} error={error} required>
      <Group mt={6}>
        {INVITABLE_ROLES.map((role) => (
          <Radio key={role} value={role} label={t(`roles.${role}`)} />
        ))}
      </Group>
    </Radio.Group>
  );
}
