import { ZImportMappingRequest } from '@herald/shared/imports/imports.schemas';
import { describe, expect, it } from 'vitest';
import { type ColumnChoice, initialChoices, mappingRequestOf } from './mapping-request.ts';

const ignored: ColumnChoice = { target: 'ignore', name: 'Note', type: 'string' };

describe('the Match Format request', () => {
  it('sends the mapped and the new columns only: the server takes the rest as not imported', () => {
    const list = mappingRequestOf([{ id: 1 }, { id: 2 }, { id: 3 }], {
      1: { target: 'attr:7', name: 'Phone', type: 'string' },
      2: ignored,
      3: { target: 'new', name: '  Company ', type: 'url' },
    });
    expect(list).toEqual([
      { processing_document_attribute_id: 1, lead_attribute_id: 7 },
      { processing_document_attribute_id: 3, name: 'Company', type: 'url' },
    ]);
  });

  it('maps a file of 600 columns, most of them ignored, within the request cap of 500', () => {
    const columns = Array.from({ length: 600 }, (_, i) => ({ id: i + 1 }));
    const choices = Object.fromEntries(columns.map((c) => [c.id, ignored]));
    choices[1] = { target: 'attr:7', name: 'Phone', type: 'string' };
    choices[600] = { target: 'new', name: 'Last', type: 'string' };
    const list = mappingRequestOf(columns, choices);
    expect(list.map((e) => e.processing_document_attribute_id)).toEqual([1, 600]);
    expect(ZImportMappingRequest.safeParse({ list }).success).toBe(true);
  });

  it('sends nothing when every column is left out (the step then asks for one)', () => {
    expect(mappingRequestOf([{ id: 1 }], { 1: ignored })).toEqual([]);
  });
});

describe('the starting choices', () => {
  const column = (id: number, lead_attribute_id: number | null, ignored = false, new_proposed = false) => ({
    id,
    name: `Column ${id}`,
    col_position: id,
    lead_attribute_id,
    ignored,
    new_proposed,
  });
  it('take the proposal, but not an ignored column or an attribute deleted since the upload', () => {
    const choices = initialChoices([column(1, 10), column(2, 11), column(3, 10, true), column(4, null)], new Set([10]));
    expect(Object.values(choices).map((c) => c.target)).toEqual(['attr:10', 'ignore', 'ignore', 'ignore']);
    expect(choices[2]).toEqual({ target: 'ignore', name: 'Column 2', type: 'string' });
  });

  it('propose a new attribute, named as the column, for an unmatched column with values, so Import keeps them', () => {
    const preview = [
      ['+380501234567', 'Olena', '', 'Kyiv', 'x'],
      ['+380671234567', 'Petro', '', 'Lviv', 'y'],
    ];
    const choices = initialChoices(
      // 1: a column no attribute matched; 2: one with no values; 3: its attribute deleted since;
      // 4: a contact app's label column (the server does not propose it).
      [column(0, 10), column(1, null, true, true), column(2, null, true, true), column(3, 11), column(4, null, true)],
      new Set([10]),
      preview,
    );
    expect(Object.values(choices).map((c) => c.target)).toEqual(['attr:10', 'new', 'ignore', 'new', 'ignore']);
    expect(choices[1]).toEqual({ target: 'new', name: 'Column 1', type: 'string' });
    // Pressing Import at once sends the new attributes by the columns' names.
    const list = mappingRequestOf([{ id: 0 }, { id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }], choices);
    expect(list).toEqual([
      { processing_document_attribute_id: 0, lead_attribute_id: 10 },
      { processing_document_attribute_id: 1, name: 'Column 1', type: 'string' },
      { processing_document_attribute_id: 3, name: 'Column 3', type: 'string' },
    ]);
  });
});
