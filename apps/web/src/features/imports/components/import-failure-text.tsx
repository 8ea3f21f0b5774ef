import { isImportFailure, type TImportFile } from '@herald/shared/imports/imports.schemas';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../../lib/i18n.ts';

/**
 * Why an import failed, in the chosen language, with the reader's or the database's own words
 * under it for whoever has to look into it. An import failed before the codes keeps its message.
 */
export function ImportFailureText({
  file,
  color,
}: {
  file: Pick<TImportFile, 'error' | 'error_code'>;
  color?: string;
}) {
  const { t } = useTranslation('imports');
  const code = file.error_code;
  if (!isImportFailure(code)) {
    return (
      <Text size="sm" c={color}>
        {translateMessage(file.error ?? undefined)}
      </Text>
    );
  }
  return (
    <>
      <Text size="sm" c={color}>
        {t(`failure.${code}`)}
      </Text>
      {file.error && (
        <Text size="xs" c="dimmed">
          {t('failure.details', { error: file.error })}
        </Text>
      )}
    </>
  );
}
