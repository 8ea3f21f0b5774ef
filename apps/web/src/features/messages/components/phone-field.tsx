import { compileIgnoredFormats, isIgnoredPhone, type PhoneRefusal, readPhone } from '@herald/shared/leads/phone';
import { TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The team's phone rule as the settings hold it: its default country and its ignored formats' lines. */
export interface PhoneRuleSettings {
  country: string;
  ignored: string;
}

export type PhoneReading = { ok: true; phone: string } | { ok: false; reason: PhoneRefusal | 'ignored' };

/** The typed number read as the server reads it: its `+380…` form, or why it is refused. */
export function readRecipientPhone(value: string, rule: PhoneRuleSettings): PhoneReading {
  const reading = readPhone(value, rule.country);
  if (reading.ok && isIgnoredPhone(reading.phone, compileIgnoredFormats(rule.ignored)))
    return { ok: false, reason: 'ignored' };
  return reading;
}

/**
 * The recipient's number, read by the same phone rule the server applies, so the user sees the
 * `+380…` form the message goes to before sending, and the field takes that form when left. A
 * refusal waits for the field to lose focus (every number is "too short" while it is being typed)
 * or for Send, which it stops.
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
  const reading = useMemo(() => (rule && value.trim() ? readRecipientPhone(value, rule) : null), [value, rule]);
  const refusal = touched && reading && !reading.ok ? t(`phoneReason.${reading.reason}`) : undefined;
  return (
    <TextInput
      label={t('phone')}
      placeholder={t('phonePlaceholder')}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      onBlur={() => {
        setTouched(true);
        // The field shows the number as it is sent (spec: the normalised +380… form).
        if (reading?.ok && reading.phone !== value) onChange(reading.phone);
      }}
      description={reading?.ok ? t('phoneNormalised', { phone: reading.phone }) : undefined}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      error={error ?? refusal}
      required
    />
  );
}
