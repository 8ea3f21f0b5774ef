import type { Params } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSegment } from '../../features/segments/api/get-segment.ts';
import { useImportFile } from '../../features/imports/api/get-import-file.ts';
import { useList } from '../../features/sources/api/get-list.ts';
import { useSource } from '../../features/sources/api/get-source.ts';

const id = (value: string | undefined) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : 0;
};

export function SourceCrumb({ params }: { params: Params }) {
  const { t } = useTranslation('sources');
  const source = useSource(id(params.sourceId));
  return source.data?.name ?? t('source');
}

export function ListCrumb({ params }: { params: Params }) {
  const { t } = useTranslation('sources');
  const list = useList(id(params.listId));
  return list.data?.name ?? t('list');
}

export function LeadCrumb({ params }: { params: Params }) {
  const { t } = useTranslation('leads');
  return t('leadNumber', { id: params.leadId });
}

export function ImportFileCrumb({ params }: { params: Params }) {
  const { t } = useTranslation('imports');
  const file = useImportFile(id(params.fileId));
  return file.data?.client_original_name ?? t('fileCrumb', { id: params.fileId });
}

export function AudienceCrumb({ params }: { params: Params }) {
  const { t } = useTranslation('segments');
  const segment = useSegment(id(params.segmentId));
  return segment.data?.name ?? t('audience');
}

export function SubSegmentCrumb({ params }: { params: Params }) {
  const { t } = useTranslation('segments');
  const segment = useSegment(id(params.subId));
  return segment.data?.name ?? t('segment');
}
