import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { PhoneTemplateForm } from '../../../features/settings/components/phone-template-form.tsx';

/** `/settings/ignore-phone-format`. */
export function IgnorePhoneFormatPage() {
  const canEdit = usePermission('settings:manage');
  return <PhoneTemplateForm canEdit={canEdit} />;
}
