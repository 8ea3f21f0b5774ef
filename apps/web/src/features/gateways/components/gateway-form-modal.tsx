import type { TGatewayField } from '@herald/shared/gateways/gateway-types';
import type { TGateway } from '@herald/shared/gateways/gateways.schemas';
import { Button, Checkbox, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form-alert.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useGatewayTypes } from '../api/get-gateway-types.ts';
import { useSaveGateway } from '../api/save-gateway.ts';
import { GatewayFieldInput } from './gateway-field-input.tsx';

interface Props {
  opened: boolean;
  /** The gateway to edit; null adds one. */
  gateway: TGateway | null;
  onClose: () => void;
}

type Errors = Record<string, string | undefined>;

/**
 * Add or edit a gateway: its type, name (the type's label until the user types one), switches and
 * the type's credential fields. Fields are checked once touched, and all of them on save.
 */
export function GatewayFormModal({ opened, gateway, onClose }: Props) {
  const { t } = useTranslation('gateways');
  const config = useGatewayTypes();
  const save = useSaveGateway();
  const [type, setType] = useState('simulator');
  const [name, setName] = useState('');
  const [nameTouched, setNameTouched] = useState(false);
  const [active, setActive] = useState(true);
  const [isDefault, setIsDefault] = useState(false);
  const [allowLookup, setAllowLookup] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string>();

  const types = config.data?.types ?? [];
  const fields: TGatewayField[] = config.data?.fields[type] ?? [];
  // A generic HTTP gateway looks up once it declares a lookup URL (gatewayCapabilities on the server).
  const canLookup =
    (config.data?.capabilities[type]?.lookup ?? false) ||
    (type === 'generic_http' && (values.lookup_url ?? '').trim() !== '');
  const labelOf = (key: string) => types.find((x) => x.key === key)?.label ?? key;
  const fieldLabel = (f: TGatewayField) => t(`fields.${f.key}`, { defaultValue: f.label });
  const stored = (key: string) => gateway !== null && gateway.type === type && gateway.credentials_set.includes(key);

  const defaultsOf = (key: string, from?: TGateway | null) =>
    Object.fromEntries(
      (config.data?.fields[key] ?? []).map((f) => [
        f.key,
        from?.type === key ? (from.params[f.key] ?? '') : (f.default ?? ''),
      ]),
    );

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the modal opens on a gateway
  useEffect(() => {
    if (!opened) return;
    const initialType = gateway?.type ?? 'simulator';
    setType(initialType);
    setName(gateway?.name ?? '');
    setNameTouched(gateway !== null);
    setActive(gateway?.active ?? true);
    setIsDefault(gateway?.default ?? false);
    setAllowLookup(gateway?.allow_lookup ?? false);
    setValues(defaultsOf(initialType, gateway));
    setTouched({});
    setErrors({});
    setFormError(undefined);
  }, [opened, gateway, config.data]);

  const shownName = nameTouched ? name : labelOf(type);

  const checkField = (f: TGatewayField, value: string): string | undefined =>
    f.required && !value.trim() && !stored(f.key)
      ? translateMessage({ code: 'gateway_field_required', params: { field: fieldLabel(f) } })
      : undefined;

  const changeType = (next: string | null) => {
    if (!next) return;
    setType(next);
    setValues(defaultsOf(next, gateway));
    setTouched({});
    setErrors({});
    if (!config.data?.capabilities[next]?.lookup) setAllowLookup(false);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    if (!shownName.trim()) found.name = translateMessage('name_required');
    for (const f of fields) found[f.key] = checkField(f, values[f.key] ?? '');
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    save.mutate(
      {
        id: gateway?.id,
        type: type as TGateway['type'],
        name: shownName.trim(),
        active,
        default: isDefault,
        allow_lookup: allowLookup && canLookup,
        credentials: values,
      },
      {
        onSuccess: () => {
          notifySuccess(t('saved'));
          onClose();
        },
        onError: (error) => {
          if (!isApiError(error) || error.status !== 422) {
            setFormError(describeApiError(error));
            return;
          }
          const next: Errors = {};
          for (const [key, messages] of Object.entries(error.errors)) {
            const field = fields.find((f) => `credentials.${f.key}` === key);
            const m = messages[0];
            next[field ? field.key : key] =
              field && m
                ? translateMessage({ code: m.code, params: { ...m.params, field: fieldLabel(field) } })
                : translateMessage(m);
          }
          setErrors(next);
          if (Object.keys(next).length === 0 || next.default || next.allow_lookup)
            setFormError(translateMessage(error.detail) ?? describeApiError(error));
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title={gateway ? t('edit') : t('add')} centered size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <FormAlert messages={formError ? [formError] : []} />
          <Select
            label={t('type')}
            required
            allowDeselect={false}
            data={types.map((x) => ({ value: x.key, label: x.label }))}
            value={type}
            onChange={changeType}
          />
          <TextInput
            label={t('name')}
            required
            value={shownName}
            error={errors.name}
            onChange={(e) => {
              setNameTouched(true);
              setName(e.currentTarget.value);
            }}
            onBlur={() =>
              setErrors((x) => ({ ...x, name: shownName.trim() ? undefined : translateMessage('name_required') }))
            }
          />
          {fields.map((f) => (
            <GatewayFieldInput
              key={`${type}.${f.key}`}
              field={f}
              value={values[f.key] ?? ''}
              stored={stored(f.key)}
              error={errors[f.key]}
              onChange={(value) => {
                setValues((v) => ({ ...v, [f.key]: value }));
                if (touched[f.key]) setErrors((x) => ({ ...x, [f.key]: checkField(f, value) }));
              }}
              onBlur={() => {
                setTouched((x) => ({ ...x, [f.key]: true }));
                setErrors((x) => ({ ...x, [f.key]: checkField(f, values[f.key] ?? '') }));
              }}
            />
          ))}
          <Group gap="xl">
            <Checkbox label={t('active')} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
            <Checkbox
              label={t('default')}
              checked={isDefault}
              error={errors.default}
              onChange={(e) => setIsDefault(e.currentTarget.checked)}
            />
            {canLookup && (
              <Checkbox
                label={t('allowLookup')}
                checked={allowLookup}
                error={errors.allow_lookup}
                onChange={(e) => setAllowLookup(e.currentTarget.checked)}
              />
            )}
          </Group>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} disabled={config.isPending}>
              {t('common:save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
