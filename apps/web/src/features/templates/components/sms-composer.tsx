import { suggestImprovements, transliterationFor } from '@herald/shared/sms/message-improver';
import { LINK_BUDGET, linkLength } from '@herald/shared/short-links/short-link-code';
import {
  fallbackOf,
  LINK_TAG,
  LINK_TAGS,
  placeholderGaps,
  placeholdersOf,
  renderMessage,
  UNSUBSCRIBE_TAG,
  unknownPlaceholders,
  writtenPlaceholders,
} from '@herald/shared/templates/render';
import { TEMPLATE_MIN_LENGTH } from '@herald/shared/templates/templates.schemas';
import { Badge, Button, Group, Popover, Select, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { IconWand } from '@tabler/icons-react';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { countMessage } from '../count-message.ts';

export interface Placeholder {
  /** What the user reads: the attribute's name, or "Link". */
  label: string;
  /** The slug inside the braces. */
  tag: string;
}

interface Props {
  value: string;
  onChange: (value: string) => void;
  label: string;
  /** Operators cannot use the improver (spec section 6). */
  canImprove: boolean;
  placeholders?: readonly Placeholder[];
  error?: string;
  /** Buttons beside the improver: load a template, save as template. */
  actions?: ReactNode;
  /**
   * The chosen recipient's values by attribute slug (several joined with '; ', as they render).
   * Given, the message is counted as that recipient receives it, so the parts shown are the parts
   * charged; a tag the recipient has no value for renders as nothing.
   */
  values?: Readonly<Record<string, string>>;
  /** The host the team's links are made on, when known: a long one makes each link longer than counted. */
  linkHost?: string | null;
}

/** A character the user cannot see (no-break space, zero-width joiner…) shown by its code point. */
function visible(char: string): string {
  return /^\s$|^[\u200B-\u200D\u2060\uFEFF]$/u.test(char)
    ? `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`
    : char;
}

/**
 * The message field every sender uses: characters, parts and encoding live, the characters that
 * turned the message into Unicode, placeholders, and the improver's cheaper versions.
 */
export function SmsComposer({
  value,
  onChange,
  label,
  canImprove,
  placeholders = [],
  error,
  actions,
  values,
  linkHost,
}: Props) {
  const { t, i18n } = useTranslation('templates');
  const tags = useMemo(() => placeholdersOf(value), [value]);
  const count = useMemo(() => countMessage(value, values), [value, values]);
  const countedWithValues = values !== undefined && tags.some((tag) => tag !== LINK_TAG && tag !== UNSUBSCRIBE_TAG);
  const hasLink = tags.includes(LINK_TAG) || tags.includes(UNSUBSCRIBE_TAG);
  const longLink = hasLink && linkHost ? linkLength(linkHost) : 0;
  // Known once the attributes are loaded (every team has phone and email): a tag naming none of
  // them would go out as a blank, and the server refuses it with the same words.
  const attributeTags = placeholders.map((p) => p.tag).filter((tag) => !LINK_TAGS.includes(tag));
  const unknown = attributeTags.length > 0 ? unknownPlaceholders(value, attributeTags) : [];
  const unknownError =
    unknown.length > 0
      ? translateMessage({ code: 'placeholder_unknown', params: { placeholders: writtenPlaceholders(unknown) } })
      : undefined;
  // The chosen recipients without a value: they get the tag's fallback, or an empty place.
  const gaps = useMemo(
    () => (values && unknown.length === 0 ? placeholderGaps(value, [values]) : []),
    [value, values, unknown.length],
  );
  // The first attribute tag without a fallback, for the hint that one may be written.
  const withoutFallback =
    unknown.length === 0 ? tags.find((tag) => !LINK_TAGS.includes(tag) && !fallbackOf(value, tag)) : undefined;
  const [improverOpen, setImproverOpen] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const tooShort = value.trim().length < TEMPLATE_MIN_LENGTH;
  const suggestions = useMemo(() => {
    if (!improverOpen) return [];
    // One rule per text: its letters' language, else the writer's (decision 030).
    return suggestImprovements(value, { transliterate: transliterationFor(value, i18n.language) });
  }, [improverOpen, value, i18n.language]);

  const insert = (tag: string) => {
    const el = field.current;
    const at = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? at;
    onChange(`${value.slice(0, at)}{{${tag}}}${value.slice(end)}`);
  };

  const improveDisabledReason = !canImprove
    ? t('composer.improverOperators')
    : tooShort
      ? t('composer.tooShort')
      : null;

  return (
    <Stack gap={6}>
      <Textarea
        ref={field}
        label={label}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        autosize
        minRows={4}
        maxRows={12}
        // One message per problem: the server's answer, else the unknown tag marked here.
        error={error ?? unknownError}
      />
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed" role="status" aria-label={t('composer.counterLabel')} data-testid="sms-counter">
          {t('composer.counter', {
            characters: t('composer.characters', {
              count: count.characters,
              formatted: formatNumber(count.characters),
            }),
            parts: formatNumber(count.parts),
            perPart: count.perPart,
            encoding: t(count.encoding === 'GSM-7' ? 'composer.gsm' : 'composer.unicode'),
          })}
        </Text>
        <Group gap="xs">
          {placeholders.length > 0 && (
            <Select
              aria-label={t('composer.insertPlaceholder')}
              placeholder={t('composer.insertPlaceholder')}
              size="xs"
              w={190}
              data={placeholders.map((p) => ({ value: p.tag, label: p.label }))}
              // The tag beside the name, so the user learns what to type.
              renderOption={({ option }) => (
                <Group gap={6} wrap="nowrap" justify="space-between" w="100%">
                  <Text size="sm">{option.label}</Text>
                  <Text size="xs" c="dimmed" ff="monospace">{`{{${option.value}}}`}</Text>
                </Group>
              )}
              value={null}
              onChange={(tag) => tag && insert(tag)}
              searchable
              comboboxProps={{ withinPortal: true }}
            />
          )}
          {actions}
          <Popover opened={improverOpen} onChange={setImproverOpen} width={380} position="bottom-end" withinPortal>
            <Popover.Target>
              <Tooltip label={improveDisabledReason} disabled={!improveDisabledReason}>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconWand size={14} aria-hidden />}
                  disabled={Boolean(improveDisabledReason)}
                  onClick={() => setImproverOpen((o) => !o)}
                >
                  {t('composer.improve')}
                </Button>
              </Tooltip>
            </Popover.Target>
            <Popover.Dropdown>
              <Stack gap="sm" aria-label={t('composer.improve')}>
                {suggestions.length === 0 && (
                  <Text size="sm" c="dimmed">
                    {t('composer.nothingToImprove')}
                  </Text>
                )}
                {suggestions.map((s) => (
                  <Stack key={s.kind} gap={4}>
                    <Group justify="space-between" wrap="nowrap">
                      <Text size="sm" fw={500}>
                        {t(`composer.kind.${s.kind}`)}
                      </Text>
                      <Text size="xs" c={s.partsAfter < s.partsBefore ? 'teal' : 'dimmed'}>
                        {t('composer.partsChange', { before: s.partsBefore, after: s.partsAfter })}
                      </Text>
                    </Group>
                    <Text size="xs" c="dimmed" lineClamp={3} style={{ whiteSpace: 'pre-wrap' }}>
                      {s.text}
                    </Text>
                    <Group justify="flex-end">
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        aria-label={t('composer.applyNamed', { name: t(`composer.kind.${s.kind}`) })}
                        onClick={() => {
                          onChange(s.text);
                          setImproverOpen(false);
                        }}
                      >
                        {t('composer.apply')}
                      </Button>
                    </Group>
                  </Stack>
                ))}
              </Stack>
            </Popover.Dropdown>
          </Popover>
        </Group>
      </Group>
      {countedWithValues && (
        <Text size="xs" c="dimmed">
          {t('composer.countedWithValues')}
        </Text>
      )}
      {values && tags.length > 0 && unknown.length === 0 && (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap' }} data-testid="sms-preview">
          {t('composer.preview', {
            text: renderMessage(value, {
              attributes: values,
              link: `{{${LINK_TAG}}}`,
              unsubscribe: `{{${UNSUBSCRIBE_TAG}}}`,
            }),
          })}
        </Text>
      )}
      {gaps.map((gap) =>
        gap.fallbackCount > 0 ? (
          <Text key={gap.tag} size="xs" c="dimmed" role="note">
            {t('composer.gapFallback', { count: gap.fallbackCount, tag: `{{${gap.tag}}}`, fallback: gap.fallback })}
          </Text>
        ) : gap.emptyCount > 0 ? (
          <Text key={gap.tag} size="xs" c="orange.8" role="note">
            {t('composer.gapEmpty', {
              count: gap.emptyCount,
              tag: `{{${gap.tag}}}`,
              example: `{{${gap.tag}|${t('composer.fallbackWord')}}}`,
            })}
          </Text>
        ) : null,
      )}
      {!values && withoutFallback && (
        <Text size="xs" c="dimmed">
          {t('composer.fallbackHint', { example: `{{${withoutFallback}|${t('composer.fallbackWord')}}}` })}
        </Text>
      )}
      {longLink > LINK_BUDGET && (
        <Text size="xs" c="orange.8" role="note">
          {t('composer.longLink', { host: linkHost, length: longLink, budget: LINK_BUDGET })}
        </Text>
      )}
      {count.unicodeCharacters.length > 0 && (
        <Group gap={4} aria-label={t('composer.unicodeBecause')}>
          <Text size="xs" c="orange.8">
            {t('composer.unicodeBecause')}
          </Text>
          {count.unicodeCharacters.slice(0, 24).map((char) => (
            <Badge key={char} size="sm" variant="light" color="orange" tt="none">
              {visible(char)}
            </Badge>
          ))}
          {count.unicodeCharacters.length > 24 && (
            <Text size="xs" c="dimmed">
              +{count.unicodeCharacters.length - 24}
            </Text>
          )}
        </Group>
      )}
    </Stack>
  );
}
