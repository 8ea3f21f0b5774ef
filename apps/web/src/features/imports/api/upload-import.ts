import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { apiUpload, type UploadOptions } from '../../../lib/api-client.ts';

export interface UploadImportInput {
  file: File;
  listId: number;
  blackList: boolean;
}

/** `POST /imports` (multipart `file`, `list_id[0]`, `black_list` '1'/'0'): the document, its columns and preview. */
export function uploadImport({ file, listId, blackList }: UploadImportInput, options?: UploadOptions) {
  const form = new FormData();
  // Fields first: the server reads them as they come, before the (possibly large) file.
  form.append('list_id[0]', String(listId));
  form.append('black_list', blackList ? '1' : '0');
  form.append('file', file, file.name);
  return apiUpload<TImportFile>('/imports', form, { toast: false, ...options });
}
