import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseInWorker } from './parse-client.ts';
import type { ParseJob } from './parse-protocol.ts';

const dir = mkdtempSync(join(tmpdir(), 'herald-parse-client-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function drain(job: ParseJob) {
  let rows = 0;
  for await (const m of parseInWorker(job)) if (m.type === 'batch') rows += m.staged;
  return rows;
}

describe('the parser thread', () => {
  it('says why a file failed across the thread: a quote never closed is import_file_unclosed_quote', async () => {
    // Past the preview's rows, a quote opens and 65 MB of lines follow without closing it.
    const path = join(dir, 'unclosed.csv');
    const good = Array.from({ length: 50 }, (_, i) => `+38050${String(1_000_000 + i)},ok`);
    const tail = `${'x'.repeat(1023)}\n`.repeat(65 * 1024);
    writeFileSync(path, `Phone,Note\n${good.join('\n')}\n+380509999999,"never closed\n${tail}`);
    const job: ParseJob = {
      mode: 'full',
      path,
      format: 'csv',
      encoding: 'utf-8',
      delimiter: ',',
      columns: [{ position: 0, attributeId: 1, type: 'phone' }],
      batchSize: 1000,
    };
    await expect(drain(job)).rejects.toMatchObject({
      code: 'import_file_unclosed_quote',
      message: 'A record of the file never ends (an unclosed quote).',
    });
  }, 60_000);
});
