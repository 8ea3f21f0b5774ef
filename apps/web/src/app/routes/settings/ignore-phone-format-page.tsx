import { Divider, Stack } from '@mantine/core';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { DefaultCountryForm } from '../../../features/settings/components/default-country-form.tsx';
import { PhoneTemplateForm } from '../../../features/settings/components/phone-template-form.tsx';

/** `/settings/ignore-phone-format`: the team's phone rule, its default country and its ignored formats. */
export function IgnorePhoneFormatPage() {
  const canEdit = usePermission('settings:manage');
  return (
    <Stack>
      <DefaultCountryForm canEdit={canEdit} />
      <Divider />
      <PhoneTemplateForm canEdit={canEdit} />
    </Stack>
  );
}
