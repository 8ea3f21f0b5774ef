import { useAttributes } from '../../../features/attributes/api/get-attributes.ts';
import { ContinueImportModal } from '../../../features/imports/components/continue-import-modal.tsx';

/**
 * The import modal for an upload left at Match Format, with the team's attributes to map its
 * columns to. Mounted only while continuing, so the attributes are read when they are needed.
 */
export function ContinueImport({ fileId, onClose }: { fileId: number; onClose: () => void }) {
  const attributes = useAttributes();
  return <ContinueImportModal fileId={fileId} attributes={attributes} onClose={onClose} />;
}
