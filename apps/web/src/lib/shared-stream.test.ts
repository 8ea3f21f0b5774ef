import { describe, expect, it } from 'vitest';
import { type ChannelLike, type LockLike, type StreamEvent, startSharedStream } from './shared-stream.ts';

/** Web Locks as browsers grant them: one holder per name, the waiters in order, a waiter may abort. */
function fakeLocks(): LockLike {
  let held = false;
  const queue: Array<{ grant: () => void }> = [];
  const next = () => {
    const waiter = queue.shift();
    if (waiter) waiter.grant();
  };
  return {
    request(_name, { signal }, callback) {
      return new Promise((resolve, reject) => {
        const waiter = {
          grant: () => {
            held = true;
            signal.removeEventListener('abort', onAbort);
            callback().then(
              () => {
                held = false;
                resolve(undefined);
                next();
              },
              () => {},
            );
          },
        };
        const onAbort = () => {
          queue.splice(queue.indexOf(waiter), 1);
          reject(new DOMException('aborted', 'AbortError'));
        };
        signal.addEventListener('abort', onAbort);
        if (held) queue.push(waiter);
        else waiter.grant();
      });
    },
  };
}

/** Channels of one name reach each other's listeners, never their own (as BroadcastChannel). */
function fakeChannels() {
  const open = new Set<ChannelLike>();
  const openChannel = (): ChannelLike => {
    const channel: ChannelLike = {
      onmessage: null,
      postMessage(data) {
        for (const other of open) if (other !== channel) other.onmessage?.({ data } as MessageEvent);
      },
      close() {
        open.delete(channel);
      },
    };
    open.add(channel);
    return channel;
  };
  return { openChannel, open };
}

/** The server: every open connection, with the id it was opened after; `send` reaches them all. */
function fakeServer() {
  const connections = new Set<{ after: string; onEvent: (e: StreamEvent) => void }>();
  const history: StreamEvent[] = [];
  const opened: string[] = [];
  return {
    connections,
    opened,
    connect(after: string, onEvent: (e: StreamEvent) => void) {
      opened.push(after);
      // Replays what came after the id, as GET /api/events does with lastEventId.
      if (after) for (const event of history) if (Number(event.id) > Number(after)) onEvent(event);
      const connection = { after, onEvent };
      connections.add(connection);
      return () => connections.delete(connection);
    },
    send(id: number, sentWhileClosed = false) {
      const event = { id: String(id), type: 'BalanceChanged', payload: { id } };
      history.push(event);
      if (!sentWhileClosed) for (const c of connections) c.onEvent(event);
    },
  };
}
let server: ReturnType<typeof fakeServer>;

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function tab(locks: LockLike, openChannel: (name: string) => ChannelLike) {
  const received: string[] = [];
  const page = new EventTarget();
  const lifecycle = new EventTarget();
  const stream = startSharedStream({
    connect: server.connect,
    deliver: (event) => received.push(event.id),
    locks,
    openChannel,
    page,
    lifecycle,
  });
  return { received, page, lifecycle, stream };
}

describe('one live stream shared by the tabs', () => {
  it('ten tabs hold one connection and all of them get every event', async () => {
    server = fakeServer();
    const locks = fakeLocks();
    const { openChannel } = fakeChannels();
    const tabs = Array.from({ length: 10 }, () => tab(locks, openChannel));
    await tick();
    expect(server.connections.size).toBe(1);
    expect(tabs.map((t) => t.stream.role())).toEqual(['leader', ...Array(9).fill('follower')]);
    server.send(1);
    server.send(2);
    for (const t of tabs) expect(t.received).toEqual(['1', '2']);
  });

  it('a hidden leader closes its stream and the next tab reopens it from the last id', async () => {
    server = fakeServer();
    const locks = fakeLocks();
    const { openChannel } = fakeChannels();
    const first = tab(locks, openChannel);
    const second = tab(locks, openChannel);
    await tick();
    server.send(1);
    first.page.dispatchEvent(new Event('pagehide'));
    await tick();
    expect(first.stream.role()).toBe('off');
    expect(second.stream.role()).toBe('leader');
    expect(server.connections.size).toBe(1);
    expect(server.opened).toEqual(['', '1']);
    server.send(2);
    expect(second.received).toEqual(['1', '2']);
    expect(first.received).toEqual(['1']);

    // Shown again (back from the back/forward cache): it waits behind the new leader and listens.
    first.page.dispatchEvent(new Event('pageshow'));
    await tick();
    expect(first.stream.role()).toBe('follower');
    server.send(3);
    expect(first.received).toEqual(['1', '3']);
    expect(server.connections.size).toBe(1);
  });

  it('what the server sent during a hand-over is replayed once, to every tab', async () => {
    server = fakeServer();
    const locks = fakeLocks();
    const { openChannel } = fakeChannels();
    const first = tab(locks, openChannel);
    const second = tab(locks, openChannel);
    const third = tab(locks, openChannel);
    await tick();
    server.send(1);
    first.lifecycle.dispatchEvent(new Event('freeze'));
    server.send(2, true); // no connection open at that moment
    await tick();
    expect(second.stream.role()).toBe('leader');
    expect(second.received).toEqual(['1', '2']);
    expect(third.received).toEqual(['1', '2']);
    first.lifecycle.dispatchEvent(new Event('resume'));
    await tick();
    expect(first.stream.role()).toBe('follower');
  });

  it('a tab that never saw an event still replays from the id the old leader passed on', async () => {
    server = fakeServer();
    const locks = fakeLocks();
    const { openChannel } = fakeChannels();
    const first = tab(locks, openChannel);
    await tick();
    server.send(7);
    const late = tab(locks, openChannel);
    await tick();
    expect(late.received).toEqual([]);
    first.stream.stop();
    await tick();
    expect(server.opened).toEqual(['', '7']);
  });

  it('a page hidden while waiting for the lock gives its place up and opens nothing', async () => {
    server = fakeServer();
    const locks = fakeLocks();
    const { openChannel, open } = fakeChannels();
    const first = tab(locks, openChannel);
    const second = tab(locks, openChannel);
    await tick();
    second.page.dispatchEvent(new Event('pagehide'));
    first.stream.stop();
    await tick();
    expect(server.connections.size).toBe(0);
    expect(open.size).toBe(0);
  });

  it('without Web Locks or BroadcastChannel each tab keeps its own stream, closed while hidden', async () => {
    server = fakeServer();
    const { openChannel } = fakeChannels();
    const a = tab(null as unknown as LockLike, openChannel);
    const b = tab(fakeLocks(), null as unknown as (name: string) => ChannelLike);
    expect(server.connections.size).toBe(2);
    server.send(1);
    expect(a.received).toEqual(['1']);
    expect(b.received).toEqual(['1']);
    a.page.dispatchEvent(new Event('pagehide'));
    expect(server.connections.size).toBe(1);
    a.page.dispatchEvent(new Event('pageshow'));
    expect(server.connections.size).toBe(2);
    a.stream.stop();
    b.stream.stop();
    expect(server.connections.size).toBe(0);
  });
});
