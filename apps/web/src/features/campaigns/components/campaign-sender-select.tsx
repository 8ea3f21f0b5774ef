import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type AlphaNameOption, gatewaySenderOf, type SendingGatewayOption } from '../campaign-senders.ts';

interface Props {
  gateway: SendingGatewayOption | undefined;
  names: AlphaNameOption[];
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  description?: string;
}

/** The sender picker: the team's approved alpha names and the chosen gateway's own sender. */
export function CampaignSenderSelect({ gateway, names, value, onChange, disabled, description }: Props) {
  const { t } = useTranslation('campaigns');
  const own = gatewaySenderOf(gateway);
  const alpha = names.map((n) => ({ value: n.name, label: n.name }));
  const groups = [
    ...(alpha.length ? [{ group: t('senderAlphaNames'), items: alpha }] : []),
    ...(own && !alpha.some((a) => a.value.toLowerCase() === own.toLowerCase())
      ? [{ group: t('senderOfGateway'), items: [{ value: own, label: own }] }]
      : []),
  ];
  // A sender held that the lists no longer offer (a name switched off since) is still shown.
  const known = groups.some((g) => g.items.some((i) => i.value === value));
  const data = value && !known ? [...groups, { group: t('senderHeld'), items: [{ value, label: value }] }] : groups;
  return (
    <Select
      label={t('sender')}
      placeholder={own ? t('senderGatewayOwn', { sender: own }) : t('senderNone')}
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      clearable
      nothingFoundMessage={t('senderNone')}
      disabled={disabled}
      description={description}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
