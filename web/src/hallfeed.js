// Every board at once: GET /api/v1/boards, then the hall-level stream GET /api/v1/events, one connection
// for the whole hall. The stream has no resume: after a reconnect the list is read again.
// The arbiter console reads it with its token (live, not delayed), through fetch-event-source since
// the browser's EventSource cannot send an Authorization header.
import { fetchEventSource } from '@microsoft/fetch-event-source';
import { ApiError, boardPath, boardsOf, getJson, headers, token, tokenRefused } from './api.js';
import { applyTick } from './clocktime.js';

const RETRY_MS = 2000;
/** A daemon without the hall stream (before GET /api/v1/events) is polled instead, this often. */
const POLL_MS = 3000;

export class HallFeed {
  /**
   * `onBoard(id)` after a board changed, `onList()` after the set of boards changed,
   * `onEvent(topic, data)` for every message (alerts, count-out calls), `onStatus(status, error)`.
   */
  constructor({ auth = false, onBoard, onList, onEvent, onStatus }) {
    this.auth = auth;
    this.boards = new Map();
    this.clockAt = new Map();
    this.cb = { onBoard, onList, onEvent, onStatus };
    this.abort = new AbortController();
    this.status = 'connecting';
    this.start();
  }

  close() {
    this.abort.abort();
    this.source?.close();
  }

  setStatus(status, error) {
    this.status = status;
    this.cb.onStatus?.(status, error);
  }

  async reload() {
    const body = await getJson('/api/v1/boards', { auth: this.auth, signal: this.abort.signal });
    const list = boardsOf(body);
    const seen = new Set();
    for (const state of list) {
      seen.add(state.board);
      this.put(state);
    }
    for (const id of [...this.boards.keys()]) if (!seen.has(id)) this.boards.delete(id);
    // Summaries from before the slim live state lack the position and alerts: read those boards whole.
    const partial = list.filter((s) => s.position === undefined && s.game);
    await Promise.all(partial.map((s) => this.reloadBoard(s.board)));
    this.cb.onList?.();
  }

  async reloadBoard(id) {
    try {
      const { moves: _, ...state } = await getJson(boardPath(id), { auth: this.auth, signal: this.abort.signal });
      this.put(state);
    } catch (error) {
      if (error.name !== 'AbortError') console.warn(`board ${id}: ${error.message}`);
    }
  }

  put(state) {
    const old = this.boards.get(state.board);
    if (old && old.game === state.game && (state.seq ?? 0) < (old.seq ?? 0)) return;
    const { moves: _, ...slim } = state;
    this.boards.set(state.board, slim);
    this.clockAt.set(state.board, performance.now());
    this.cb.onBoard?.(state.board);
  }

  handle(topic, text) {
    let data;
    try {
      data = JSON.parse(text);
    } catch {
      return;
    }
    const id = data.board;
    const known = this.boards.get(id);
    if (topic === 'state') {
      if (!known) this.cb.onList?.();
      this.put(data);
    } else if (known) {
      if (topic === 'clock' && data.clock && typeof data.clock === 'object') {
        this.boards.set(id, { ...known, clock: applyTick(known.clock, data.clock) });
        this.clockAt.set(id, performance.now());
      } else if (topic === 'infractions' && data.infraction) {
        const list = (known.infractions || []).filter((i) => i.id !== data.infraction.id);
        this.boards.set(id, { ...known, infractions: [...list, data.infraction] });
      } else if (topic === 'device' && data.device) {
        this.boards.set(id, { ...known, device: data.device });
      }
      this.cb.onBoard?.(id);
    }
    this.cb.onEvent?.(topic, data);
  }

  async start() {
    try {
      await this.reload();
    } catch (error) {
      if (error.name === 'AbortError') return;
      this.setStatus(error.status === 401 ? 'unauthorized' : 'reconnecting', error);
      if (error.status === 401) return;
      setTimeout(() => this.start(), RETRY_MS);
      return;
    }
    if (this.auth) this.streamWithToken();
    else this.streamPublic();
  }

  /** Reads the whole list again every few seconds: the fallback for a daemon without the hall stream. */
  poll() {
    this.setStatus('polling');
    const again = () => {
      if (this.abort.signal.aborted) return;
      this.reload()
        .then(() => this.setStatus('polling'))
        .catch((error) => this.setStatus(error.status === 401 ? 'unauthorized' : 'reconnecting', error))
        .finally(() => this.status !== 'unauthorized' && setTimeout(again, POLL_MS));
    };
    setTimeout(again, POLL_MS);
  }

  streamPublic() {
    const source = new EventSource('/api/v1/events');
    this.source = source;
    let opened = false;
    source.onopen = () => {
      if (opened) this.reload().catch(() => {});
      opened = true;
      this.setStatus('live');
    };
    source.onerror = () => {
      if (!opened && source.readyState === EventSource.CLOSED) {
        source.close();
        this.poll();
      } else this.setStatus('reconnecting');
    };
    for (const topic of ['state', 'moves', 'clock', 'infractions', 'device']) {
      source.addEventListener(topic, (e) => this.handle(topic, e.data));
    }
  }

  streamWithToken() {
    let opened = false;
    const sent = token.read();
    fetchEventSource('/api/v1/events', {
      headers: headers(true, { Accept: 'text/event-stream' }),
      signal: this.abort.signal,
      openWhenHidden: true,
      onopen: async (response) => {
        if (response.status === 401) {
          // A daemon restarted with other tokens refuses the one kept: forget it.
          tokenRefused(sent);
          throw new ApiError(401, 'the daemon refused the token');
        }
        if (response.status === 404 && !opened) throw new ApiError(404, 'no hall stream');
        if (!response.ok) throw new ApiError(response.status, `hall stream: ${response.status}`);
        if (opened) await this.reload();
        opened = true;
        this.setStatus('live');
      },
      onmessage: (m) => m.event && this.handle(m.event, m.data),
      onclose: () => {
        this.setStatus('reconnecting');
        throw new Error('stream closed');
      },
      onerror: (error) => {
        if (error instanceof ApiError && error.status === 401) {
          this.setStatus('unauthorized', error);
          throw error;
        }
        if (error instanceof ApiError && error.status === 404) {
          this.poll();
          throw error;
        }
        this.setStatus('reconnecting', error);
        return RETRY_MS;
      },
    }).catch(() => {});
  }
}
