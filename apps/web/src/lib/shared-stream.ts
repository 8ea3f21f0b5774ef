/**
 * One live-event stream for every tab of a browser, closed while a page is hidden.
 *
 * Browsers allow six HTTP/1.1 connections per host. A stream per tab, and the streams of pages kept
 * in the back/forward cache, used them up until full page loads waited tens of seconds for a free
 * one. So: one tab, the leader (the holder of a Web Lock), keeps the stream and passes its events
 * on through a `BroadcastChannel`; the others only listen. A page that is hidden (`pagehide`, also
 * before it enters the back/forward cache) or frozen closes its stream and gives the lock up, and
 * asks again when shown; a waiting tab takes over and reopens the stream from the last event id,
 * so the server replays what came between. Without Web Locks or `BroadcastChannel` each tab keeps
 * a stream of its own, still closed while hidden.
 *
 * The browser objects come in as arguments so that the hand-over can be tested without a browser.
 */

export interface StreamEvent {
  /** The SSE id: increasing, the server replays the events after it. */
  id: string;
  type: string;
  payload: unknown;
}

/** Opens the server stream after `lastEventId` (empty: from now); returns its closer. */
export type Connect = (lastEventId: string, onEvent: (event: StreamEvent) => void) => () => void;

/** What the stream needs of `navigator.locks`. */
export interface LockLike {
  request(name: string, options: { signal: AbortSignal }, callback: () => Promise<void>): Promise<unknown>;
}

/** What the stream needs of a `BroadcastChannel`. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  close(): void;
  onmessage: ((event: MessageEvent) => void) | null;
}

export interface SharedStreamOptions {
  connect: Connect;
  /** Receives every event once, whichever tab's stream it came through. */
  deliver: (event: StreamEvent) => void;
  locks?: LockLike | null;
  openChannel?: ((name: string) => ChannelLike) | null;
  /** Where `pagehide`/`pageshow` fire (the window). */
  page: EventTarget;
  /** Where `freeze`/`resume` fire (the document). */
  lifecycle: EventTarget;
  /** One stream per name: the lock's and the channel's. */
  name?: string;
}

type Message = { kind: 'event'; event: StreamEvent } | { kind: 'last'; id: string };

const SEEN_LIMIT = 500;

export interface SharedStream {
  /** `leader` while this tab holds the stream, `follower` while another does, `off` while hidden. */
  role(): 'leader' | 'follower' | 'off';
  stop(): void;
}

export function startSharedStream({
  connect,
  deliver,
  locks,
  openChannel,
  page,
  lifecycle,
  name = 'herald.live-events',
}: SharedStreamOptions): SharedStream {
  let lastEventId = '';
  // Ids delivered lately: a replay after a hand-over must not repeat what a tab already heard.
  const seen = new Set<string>();
  let role: 'leader' | 'follower' | 'off' = 'off';
  let channel: ChannelLike | null = null;
  let closeStream: (() => void) | null = null;
  let abortWait: AbortController | null = null;
  let stepDown: (() => void) | null = null;

  const accept = (event: StreamEvent) => {
    if (event.id) {
      if (seen.has(event.id)) return false;
      seen.add(event.id);
      if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value as string);
      lastEventId = event.id;
    }
    deliver(event);
    return true;
  };

  const lead = () => {
    role = 'leader';
    closeStream = connect(lastEventId, (event) => {
      if (accept(event)) channel?.postMessage({ kind: 'event', event } satisfies Message);
    });
  };

  const resume = () => {
    if (role !== 'off') return;
    try {
      channel = openChannel ? openChannel(name) : null;
    } catch {
      channel = null;
    }
    if (!channel || !locks) {
      channel?.close();
      channel = null;
      lead();
      return;
    }
    channel.onmessage = ({ data }) => {
      const message = data as Message;
      if (message?.kind === 'event') accept(message.event);
      else if (message?.kind === 'last' && Number(message.id) > Number(lastEventId || 0)) lastEventId = message.id;
    };
    role = 'follower';
    const wait = new AbortController();
    abortWait = wait;
    locks
      .request(name, { signal: wait.signal }, () => {
        // Granted: this tab holds the stream until it is hidden or stopped.
        abortWait = null;
        lead();
        return new Promise<void>((release) => {
          stepDown = release;
        });
      })
      .catch(() => {
        // Aborted while waiting (the page was hidden): nothing to give back.
      });
  };

  const suspend = () => {
    if (role === 'off') return;
    abortWait?.abort();
    abortWait = null;
    closeStream?.();
    closeStream = null;
    // The next leader replays from here, so what arrives during the hand-over is not lost.
    if (role === 'leader' && lastEventId) channel?.postMessage({ kind: 'last', id: lastEventId } satisfies Message);
    stepDown?.();
    stepDown = null;
    if (channel) channel.onmessage = null;
    channel?.close();
    channel = null;
    role = 'off';
  };

  const onShow = () => resume();
  const onHide = () => suspend();
  page.addEventListener('pagehide', onHide);
  page.addEventListener('pageshow', onShow);
  lifecycle.addEventListener('freeze', onHide);
  lifecycle.addEventListener('resume', onShow);
  resume();

  return {
    role: () => role,
    stop() {
      page.removeEventListener('pagehide', onHide);
      page.removeEventListener('pageshow', onShow);
      lifecycle.removeEventListener('freeze', onHide);
      lifecycle.removeEventListener('resume', onShow);
      suspend();
    },
  };
}
