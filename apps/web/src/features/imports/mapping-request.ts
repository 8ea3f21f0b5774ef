import type { TImportFile, TImportMappingRequest, TNewAttributeType } from '@herald/shared/imports/imports.schemas';

/** What Match Format chose for a column. */
export interface ColumnChoice {
  /** `ignore`, `new`, or `attr:<id>`. */
  target: string;
  name: string;
  type: TNewAttributeType;
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

/**
 * Match Format's starting choices: the server's proposal; a column it could not match becomes a
 * new attribute under the column's own name (a Name or City column keeps its data when the user
 * just presses Import), unless the server says it is a contact app's bookkeeping column or the
 * preview shows it empty. An attribute deleted since the upload (an upload continued later) is
 * not proposed.
 */
export function initialChoices(
  columns: TImportFile['attributes'],
  attributeIds: ReadonlySet<number>,
  preview: readonly (readonly string[])[] = [],
): Record<number, ColumnChoice> {
  const hasValues = (position: number) => preview.some((row) => (row[position] ?? '').trim() !== '');
  return Object.fromEntries(
    columns.map((c) => {
      const matched = c.lead_attribute_id && !c.ignored && attributeIds.has(c.lead_attribute_id);
      const target = matched
        ? `attr:${c.lead_attribute_id}`
        : (c.new_proposed || (c.lead_attribute_id !== null && !c.ignored)) && hasValues(c.col_position)
          ? 'new'
          : 'ignore';
      return [c.id, { target, name: c.name, type: 'string' as TNewAttributeType }];
    }),
  );
}
