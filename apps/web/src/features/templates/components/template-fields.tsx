import { SMS_TEMPLATE_TYPES, type TSmsTemplateType } from '@herald/shared/templates/templates.schemas';
import { Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A template's name and type, shared by "save as template" and "add/update template". */
export function TemplateNameFields({
  name,
  type,
  onName,
  onType,
  nameError,
}: {
  name: string;
  type: TSmsTemplateType;
  onName: (v: string) => void;
  onType: (v: TSmsTemplateType) => void;
  nameError?: string;
}) {
  const { t } = useTranslation('templates');
  return (
    <>
      <TextInput
        label={t('fields.name')}
        required
        data-autofocus
        value={name}
        maxLength={100}
        onChange={(e) => onName(e.currentTarget.value)}
        error={nameError}
      />
      <Select
        label={t('fields.type')}
        required
        allowDeselect={false}
        data={SMS_TEMPLATE_TYPES.map((v) => ({ value: v, label: t(`types.${v}`) }))}
        value={type}
        onChange={(v) => v && onType(v as TSmsTemplateType)}
        comboboxProps={{ withinPortal: true }}
      />
    </>
  );
}
