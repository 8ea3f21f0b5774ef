// The import benchmark's files, written by a child process: the benchmark measures the peak RSS of
// its own process (the server), and exceljs's writer would otherwise leave a few hundred MB there
// (a worker thread is not enough: the allocator keeps what the thread freed).
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';

interface Files {
  csvPath: string;
  csvRows: number;
  xlsxPath: string;
  xlsxRows: number;
}

/** Rows with 5% of phones repeating an earlier row's. */
function* rows(count: number) {
  for (let i = 0; i < count; i++) {
    const n = i % 20 === 19 ? i - 7 : i;
    yield [
      `+38050${String(n).padStart(7, '0')}`,
      `user${i}@example.com`,
      `First${i % 977}`,
      `Last${i % 1303}`,
      `City ${i % 100}`,
    ];
  }
}

async function writeCsv(path: string, count: number) {
  const out = createWriteStream(path);
  out.write('phone,email,first_name,last_name,city\n');
  let chunk = '';
  for (const r of rows(count)) {
    chunk += `${r.join(',')}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

async function writeXlsx(path: string, count: number) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Leads');
  sheet.addRow(['phone', 'email', 'first_name', 'last_name', 'city']).commit();
  for (const r of rows(count)) sheet.addRow(r).commit();
  sheet.commit();
  await workbook.commit();
}

/** Writes the CSV and the XLSX in a child process and resolves when both are on disk. */
export async function writeImportFiles(files: Files): Promise<void> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), JSON.stringify(files)], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`writing the import files failed (exit ${code})`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = JSON.parse(process.argv[2] ?? '{}') as Files;
  await writeCsv(files.csvPath, files.csvRows);
  await writeXlsx(files.xlsxPath, files.xlsxRows);
}
