import type { Params } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TPermission } from '@herald/shared/auth/permissions';
import { useCurrentUser } from '../../features/auth/api/get-current-user.ts';
import { useSegment } from '../../features/segments/api/get-segment.ts';
import { useImportFile } from '../../features/imports/api/get-import-file.ts';
import { useList } from '../../features/sources/api/get-list.ts';
import { useSource } from '../../features/sources/api/get-source.ts';

const id = (value: string | undefined) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : 0;
};

/**
 * The id to fetch a crumb's name with, or 0 (no request) while the role may not read it: the
 * header renders before the route's permission guard redirects.
 */
function useReadableId(value: string | undefined, permission: TPermission) {
  const { data: user } = useCurrentUser();
  return user?.permissions.includes(permission) ? id(value) : 0;
}

export function SourceCrumb({ params }: { params: Params }) {
  const { t } = useTranslation('sources');
  const source = useSource(useReadableId(params.sourceId, 'sources:read'));
  return source.data?.name ?? t('source');
}

export function ListCrumb({ params }: { params: Params }) {
  const { t } = useTranslation('sources');
  const list = useList(useReadableId(params.listId, 'sources:read'));
  return list.data?.name ?? t('list');
}

export function LeadCrumb({ params }: { params: Params }) {
  const { t } = useTranslation('leads');
  return t('leadNumber', { id: params.leadId });
}

export function ImportFileCrumb({ params }: { params: Params }) {
  const { t } = useTranslation('imports');
  const file = useImportFile(useReadableId(params.fileId, 'imports:read'));
  return file.data?.client_original_name ?? t('fileCrumb', { id: params.fileId });
}

export function AudienceCrumb({ params }: { params: Params }) {
  const { t } = useTranslation('segments');
  const segment = useSegment(useReadableId(params.segmentId, 'segments:read'));
  return segment.data?.name ?? t('audience');
}

export function SubSegmentCrumb({ params }: { params: Params }) {
  const { t } = useTranslation('segments');
  const segment = useSegment(useReadableId(params.subId, 'segments:read'));
  return segment.data?.name ?? t('segment');
}
