import { compileIgnoredFormats, isIgnoredPhone, type PhoneRefusal, readPhone } from '@herald/shared/leads/phone';
import { TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The team's phone rule as the settings hold it: its default country and its ignored formats' lines. */
export interface PhoneRuleSettings {
  country: string;
  ignored: string;
}

type Reading = { ok: true; phone: string } | { ok: false; reason: PhoneRefusal | 'ignored' };

function read(value: string, rule: PhoneRuleSettings): Reading {
  const reading = readPhone(value, rule.country);
  if (reading.ok && isIgnoredPhone(reading.phone, compileIgnoredFormats(rule.ignored)))
    return { ok: false, reason: 'ignored' };
  return reading;
}

/**
 * The recipient's number, read by the same phone rule the server applies, so the user sees the
 * `+380…` form the message goes to before sending. A refusal waits for the field to lose focus:
 * every number is "too short" while it is being typed.
 */
export function PhoneField({
  value,
  onChange,
  rule,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  /** Unknown while it loads: nothing is said until then rather than a guess by another country. */
  rule: PhoneRuleSettings | undefined;
  error?: string;
}) {
  const { t } = useTranslation('messages-sms');
  const [touched, setTouched] = useState(false);
  const reading = useMemo(() => (rule && value.trim() ? read(value, rule) : null), [value, rule]);
  const refusal = touched && reading && !reading.ok ? t(`phoneReason.${reading.reason}`) : undefined;
  return (
    <TextInput
      label={t('phone')}
      placeholder={t('phonePlaceholder')}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      onBlur={() => setTouched(true)}
      description={reading?.ok ? t('phoneNormalised', { phone: reading.phone }) : undefined}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      error={error ?? refusal}
      required
    />
  );
}
