import { createReadStream, statSync } from 'node:fs';
import { request } from 'node:http';

/**
 * Posts a multipart form whose file is streamed from disk, as a browser sends it. fetch with a
 * FormData held ~90 MB of a 100 MB file in ArrayBuffers until the next GC — memory of the client,
 * which the import benchmark (client and server in one process) would otherwise count as the server's.
 */
export function uploadFile(
  url: string,
  headers: Record<string, string>,
  fields: Record<string, string>,
  path: string,
  fileName: string,
): Promise<{ status: number; body: string }> {
  const boundary = `----herald-bench-${Date.now().toString(16)}`;
  const head =
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  const tail = `\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(head) + statSync(path).size + Buffer.byteLength(tail);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(length),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.write(head);
    const file = createReadStream(path);
    file.on('error', reject);
    file.on('end', () => req.end(tail));
    file.pipe(req, { end: false });
  });
}
