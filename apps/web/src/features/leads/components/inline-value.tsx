import type { TLeadValue } from '@herald/shared/leads/leads.schemas';
import { ActionIcon, Group, Stack, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { IconPencil, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useDeleteLeadValue } from '../api/delete-lead-value.ts';
import { useUpdateLeadValue } from '../api/update-lead-value.ts';
import { attributeLabel } from '../../../lib/attribute-label.ts';
import { PhoneCheck } from '../../../components/phone-check.tsx';

/**
 * One value of a lead. Editable ones turn into an input on click; Enter saves only if the value
 * changed (spec section 5), Escape or leaving the field cancels.
 */
export function InlineValue({
  value,
  editable,
  removable,
}: {
  value: TLeadValue;
  editable: boolean;
  removable: boolean;
}) {
  const { t } = useTranslation('leads');
  const update = useUpdateLeadValue();
  const remove = useDeleteLeadValue();
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();

  if (draft !== null) {
    const save = () => {
      const next = draft.trim();
      if (next === value.value || next === '') {
        setDraft(null);
        return;
      }
      update.mutate(
        { id: value.id, type: value.attribute.type, value: next },
        {
          onSuccess: () => {
            setDraft(null);
            setError(undefined);
            notifySuccess(t('valueSaved'));
          },
          onError: (e) => setError(isApiError(e) ? translateMessage(e.errors.value?.[0]) : undefined),
        },
      );
    };
    return (
      <TextInput
        size="xs"
        autoFocus
        aria-label={t('editValueOf', { name: attributeLabel(value.attribute) })}
        value={draft}
        error={error}
        disabled={update.isPending}
        onChange={(e) => setDraft(e.currentTarget.value)}
        onBlur={() => !update.isPending && setDraft(null)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') save();
          if (e.key === 'Escape') setDraft(null);
        }}
        maw={360}
      />
    );
  }

  return (
    <Stack gap={2}>
      <Group gap={4} wrap="nowrap">
        {editable ? (
          <UnstyledButton
            onClick={() => setDraft(value.value)}
            aria-label={t('editValue', { name: attributeLabel(value.attribute), value: value.value })}
          >
            <Group gap={6} wrap="nowrap">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {value.value}
              </Text>
              <IconPencil size={14} stroke={1.6} color="var(--mantine-color-dimmed)" aria-hidden />
            </Group>
          </UnstyledButton>
        ) : (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {value.value}
          </Text>
        )}
        {removable && (
          <Tooltip label={t('removeValue', { value: value.value })}>
            <ActionIcon
              size="sm"
              variant="subtle"
              color="gray"
              aria-label={t('removeValue', { value: value.value })}
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(
                  { id: value.id, type: value.attribute.type },
                  { onSuccess: () => notifySuccess(t('valueRemoved')) },
                )
              }
            >
              <IconX size={14} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
      {value.attribute.type === 'phone' && <PhoneCheck value={value} size="sm" />}
    </Stack>
  );
}
