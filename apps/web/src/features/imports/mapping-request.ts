import type { TImportMappingRequest } from '@herald/shared/imports/imports.schemas';

export type NewAttributeType = 'string' | 'number' | 'date' | 'url';

/** What Match Format chose for a column. */
export interface ColumnChoice {
  /** `ignore`, `new`, or `attr:<id>`. */
  target: string;
  name: string;
  type: NewAttributeType;
}

/**
 * The Match Format request: only the columns that are imported (to an attribute, or to a new one
 * by name). The server takes the columns left out as not imported, so a file of many columns, most
 * of them ignored, stays within the request's cap.
 */
export function mappingRequestOf(
  columns: Array<{ id: number }>,
  choices: Record<number, ColumnChoice>,
): TImportMappingRequest['list'] {
  return columns.flatMap((c): TImportMappingRequest['list'] => {
    const choice = choices[c.id];
    if (choice?.target === 'new') {
      return [{ processing_document_attribute_id: c.id, name: choice.name.trim(), type: choice.type }];
    }
    if (choice?.target.startsWith('attr:')) {
      return [{ processing_document_attribute_id: c.id, lead_attribute_id: Number(choice.target.slice(5)) }];
    }
    return [];
  });
}
