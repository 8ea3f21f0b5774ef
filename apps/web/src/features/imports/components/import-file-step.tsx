import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { Alert, Button, Group, Progress, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconFileSpreadsheet, IconUpload, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Choice, CreatableSelect } from '../../../components/creatable-select.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { describeApiError, firstFieldMessages } from '../../../lib/describe-api-error.ts';
import { uploadImport } from '../api/upload-import.ts';

export interface ImportPlace {
  id: number;
  name: string;
  lists: { id: number; name: string }[];
}

export interface ImportFileStepProps {
  places: ImportPlace[];
  placesLoading?: boolean;
  preset?: { sourceId: number; listId?: number };
  createSource: (name: string) => Promise<{ id: number; name: string }>;
  createList: (sourceId: number, name: string) => Promise<{ id: number; name: string }>;
  onUploaded: (file: TImportFile) => void;
  onCancel: () => void;
}

/** Spec section 5: csv, xls, xlsx, and tsv. Extensions decide, since browsers disagree on CSV types. */
const ACCEPT = {
  'text/csv': ['.csv'],
  'text/tab-separated-values': ['.tsv'],
  'application/vnd.ms-excel': ['.xls', '.csv'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
};

/** Import file: choose or create the source and list, the black-list switch, then drop a file. */
export function ImportFileStep({
  places,
  placesLoading,
  preset,
  createSource,
  createList,
  onUploaded,
  onCancel,
}: ImportFileStepProps) {
  const { t } = useTranslation('imports');
  const [source, setSource] = useState<Choice | null>(null);
  const [list, setList] = useState<Choice | null>(null);
  const [blackList, setBlackList] = useState(false);
  const [flagged, setFlagged] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [uploading, setUploading] = useState<{ name: string; share: number } | null>(null);
  const abort = useRef<AbortController | null>(null);

  // The screen the modal was opened from chooses the source (and list) once the places are known.
  const presetApplied = useRef(false);
  useEffect(() => {
    if (!preset || presetApplied.current) return;
    const s = places.find((p) => p.id === preset.sourceId);
    if (!s) return;
    presetApplied.current = true;
    setSource({ id: s.id, name: s.name });
    const l = s.lists.find((x) => x.id === preset.listId);
    if (l) setList({ id: l.id, name: l.name });
  }, [places, preset]);

  useEffect(() => () => abort.current?.abort(), []);

  const lists = source?.id ? (places.find((p) => p.id === source.id)?.lists ?? []) : [];

  const accept = async (files: File[]) => {
    const file = files[0];
    if (!file) return;
    if (!source || !list) {
      setFlagged(true);
      setProblems([t('selectSourceFirst')]);
      return;
    }
    setProblems([]);
    const controller = new AbortController();
    abort.current = controller;
    setUploading({ name: file.name, share: 0 });
    try {
      // New names are created first; what was created is kept, so a retry does not create it twice.
      let sourceId = source.id;
      if (sourceId === null) {
        const created = await createSource(source.name);
        sourceId = created.id;
        setSource({ id: created.id, name: created.name });
      }
      let listId = list.id;
      if (listId === null) {
        const created = await createList(sourceId, list.name);
        listId = created.id;
        setList({ id: created.id, name: created.name });
      }
      const uploaded = await uploadImport(
        { file, listId, blackList },
        { signal: controller.signal, onProgress: (share) => setUploading({ name: file.name, share }) },
      );
      onUploaded(uploaded);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      const title = describeApiError(error);
      const fields = isApiError(error) ? firstFieldMessages(error.errors).filter((m) => m !== title) : [];
      setProblems([title, ...fields]);
    } finally {
      if (abort.current === controller) abort.current = null;
      setUploading(null);
    }
  };

  const reject = (rejections: FileRejection[]) => {
    if (rejections.length > 0) setProblems([t('errors:import_file_type_unsupported')]);
  };

  const required = t('required');
  const share = Math.floor((uploading?.share ?? 0) * 100);

  return (
    <Stack>
      {problems.length > 0 && (
        <Alert color="red" role="alert" icon={<IconX size={18} aria-hidden />}>
          {problems.map((p) => (
            <div key={p}>{p}</div>
          ))}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <CreatableSelect
          label={t('source')}
          placeholder={placesLoading ? t('common:loading') : t('sourcePlaceholder')}
          items={places}
          value={source}
          required
          disabled={Boolean(uploading)}
          error={flagged && !source ? required : undefined}
          createLabel={(name) => t('createNamed', { name })}
          nothingFound={t('sources:noSources')}
          onChange={(next) => {
            setProblems([]);
            setSource(next);
            if (next?.id !== source?.id || next?.name !== source?.name) setList(null);
          }}
        />
        <CreatableSelect
          label={t('list')}
          placeholder={t('listPlaceholder')}
          items={lists}
          value={list}
          required
          disabled={Boolean(uploading) || !source}
          error={flagged && !list ? required : undefined}
          createLabel={(name) => t('createNamed', { name })}
          nothingFound={t('sources:noLists')}
          onChange={(next) => {
            setProblems([]);
            setList(next);
          }}
        />
      </SimpleGrid>
      <Switch
        label={t('blackList')}
        description={t('blackListHint')}
        checked={blackList}
        disabled={Boolean(uploading)}
        onChange={(e) => setBlackList(e.currentTarget.checked)}
      />
      {uploading ? (
        <Stack gap={6} py="lg">
          <Text size="sm">{t('uploading', { name: uploading.name })}</Text>
          <Progress value={share} striped animated aria-label={t('uploadProgress', { value: share })} />
          <Group justify="flex-end">
            <Button variant="default" size="xs" onClick={() => abort.current?.abort()}>
              {t('cancelUpload')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Dropzone
          onDrop={accept}
          onReject={reject}
          accept={ACCEPT}
          maxFiles={1}
          multiple={false}
          // A keyboard user reaches it with Tab and opens the file dialog with Enter or Space.
          role="button"
          aria-label={t('dropzoneLabel')}
        >
          <Group justify="center" gap="lg" mih={140} style={{ pointerEvents: 'none' }} wrap="nowrap">
            <Dropzone.Accept>
              <IconUpload size={44} stroke={1.5} color="var(--mantine-color-indigo-6)" aria-hidden />
            </Dropzone.Accept>
            <Dropzone.Reject>
              <IconX size={44} stroke={1.5} color="var(--mantine-color-red-6)" aria-hidden />
            </Dropzone.Reject>
            <Dropzone.Idle>
              <IconFileSpreadsheet size={44} stroke={1.5} color="var(--mantine-color-dimmed)" aria-hidden />
            </Dropzone.Idle>
            <div>
              <Text size="lg">{t('dropTitle')}</Text>
              <Text size="sm" c="dimmed" mt={4}>
                {t('dropHint')}
              </Text>
            </div>
          </Group>
        </Dropzone>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('common:cancel')}
        </Button>
      </Group>
    </Stack>
  );
}
