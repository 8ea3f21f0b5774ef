import { isImportFailure, type TImportFailure } from '@herald/shared/imports/imports.schemas';

/** An error that says why an import failed in a code the web translates (`import_files.error_code`). */
export class ImportFailure extends Error {
  readonly code: TImportFailure;
  constructor(code: TImportFailure, message: string) {
    super(message);
    this.code = code;
  }
}

/** The failure code an error carries (also across the parser thread, as `code`), or `fallback`. */
export function failureCodeOf(error: unknown, fallback: TImportFailure): TImportFailure {
  const code = (error as { code?: unknown } | null)?.code;
  return isImportFailure(code) ? code : fallback;
}
