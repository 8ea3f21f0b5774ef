import http from 'node:http';

export interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
}

/** Opens GET /api/events and collects parsed messages until `close()`. */
export function openEvents(port: number, token: string, headers: Record<string, string> = {}) {
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  let status = 0;
  let req: http.ClientRequest;
  const opened = new Promise<void>((resolve, reject) => {
    const sent = { authorization: `Bearer ${token}`, ...headers };
    req = http.get({ host: '127.0.0.1', port, path: '/api/events', headers: sent }, (res) => {
      status = res.statusCode ?? 0;
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let index = buffer.indexOf('\n\n');
        while (index >= 0) {
          const block = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          const message: SseMessage = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line);
            const [key, ...rest] = line.split(': ');
            if (key === 'id' || key === 'event' || key === 'data') message[key] = rest.join(': ');
          }
          if (message.event) messages.push(message);
          index = buffer.indexOf('\n\n');
        }
      });
      resolve();
    });
    req.on('error', reject);
  });
  return {
    opened,
    messages,
    comments,
    status: () => status,
    close: () => req.destroy(),
    async waitFor(predicate: (m: SseMessage) => boolean, timeoutMs = 10_000) {
      const start = Date.now();
      while (Date.now() - start < timeoutMs) {
        const found = messages.find(predicate);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`event not received; got ${JSON.stringify(messages)}`);
    },
  };
}
