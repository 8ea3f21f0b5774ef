import type { TGatewayField } from '@herald/shared/gateways/gateway-types';
import { PasswordInput, Select, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface Props {
  field: TGatewayField;
  value: string;
  /** A secret already stored: the input stays empty and keeps it unless something is typed. */
  stored: boolean;
  error?: string;
  onChange: (value: string) => void;
  onBlur: () => void;
}

/** One credential field of a gateway type, drawn by its kind. */
export function GatewayFieldInput({ field, value, stored, error, onChange, onBlur }: Props) {
  const { t } = useTranslation('gateways');
  // `{{phone}}` in a label or help is the provider's template placeholder, shown as written.
  const literal = { phone: '{{phone}}' };
  const common = {
    label: t(`fields.${field.key}`, { defaultValue: field.label, ...literal }),
    // Fields whose format is not obvious from the label carry a line of help.
    description: t(`help.${field.key}`, { defaultValue: '', ...literal }) || undefined,
    required: field.required && !stored,
    error,
    onBlur,
  };
  switch (field.kind) {
    case 'secret':
      return (
        <PasswordInput
          {...common}
          autoComplete="off"
          placeholder={stored ? t('secretStored') : undefined}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    case 'textarea':
      return (
        <Textarea
          {...common}
          autosize
          minRows={2}
          maxRows={8}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          allowDeselect={false}
          data={(field.options ?? []).map((o) => ({
            value: o.key,
            label: t(`options.${o.key}`, { defaultValue: o.label }),
          }))}
          value={value || null}
          onChange={(v) => onChange(v ?? '')}
        />
      );
    case 'number':
      return (
        <TextInput
          {...common}
          inputMode="numeric"
          value={value}
          description={field.max !== undefined ? `${field.min ?? 0}–${field.max}` : common.description}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    default:
      return (
        <TextInput
          {...common}
          type={field.kind === 'url' ? 'url' : 'text'}
          placeholder={field.key === 'base_url' ? t('baseUrlHint') : undefined}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
  }
}
