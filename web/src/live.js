// One board followed live: its state from the per-board SSE stream (the browser resumes it with
// Last-Event-ID by itself) and its move list from GET /moves?since=N, caught up whenever it has a gap.
import { useEffect, useState } from 'preact/hooks';
import { emptyAnalysis, withAnalysis, withPage } from './analysis.js';
import { boardPath, getJson } from './api.js';
import { applyTick } from './clocktime.js';

/** A move record of the API from a `move_played` event. */
function recordOf(event) {
  return {
    number: event.number,
    color: event.color,
    point: event.point,
    at: event.played_at ?? event.at,
    time_left_ms: event.time_left_ms ?? null,
    periods_left: event.periods_left ?? null,
  };
}

export class BoardFeed {
  constructor(id, onChange, { onCall } = {}) {
    this.id = id;
    this.onChange = onChange;
    this.onCall = onCall;
    this.state = null;
    this.moves = [];
    this.game = undefined;
    this.connection = 'connecting';
    this.clockAt = performance.now();
    this.catching = false;
    this.again = false;
    this.closed = false;
    this.lastEventId = '';
    this.analysis = emptyAnalysis();
    this.open();
    this.loadAnalysis();
  }

  /** The analysis released so far (a daemon without the route: analysis stays unknown). */
  async loadAnalysis() {
    try {
      const page = await getJson(`${boardPath(this.id)}/analysis`);
      if (this.closed) return;
      this.analysis = withPage(this.analysis, page);
      this.onChange();
    } catch (error) {
      console.warn(`analysis of ${this.id}: ${error.message}`);
    }
  }

  /**
   * Opens the stream. The browser reconnects by itself with Last-Event-ID; when it gives up
   * (the daemon answered an error while restarting), a new stream resumes from the last id seen.
   */
  open() {
    const resume = this.lastEventId ? `?last_event_id=${encodeURIComponent(this.lastEventId)}` : '';
    const source = new EventSource(`${boardPath(this.id)}/events${resume}`);
    this.source = source;
    source.onopen = () => this.setConnection('live');
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED) return this.setConnection('reconnecting');
      this.setConnection('reconnecting');
      setTimeout(() => !this.closed && this.source === source && this.open(), 2000);
    };
    for (const topic of ['state', 'moves', 'clock', 'infractions', 'device', 'analysis']) {
      source.addEventListener(topic, (e) => {
        if (e.lastEventId) this.lastEventId = e.lastEventId;
        this.handle(topic, e);
      });
    }
  }

  close() {
    this.closed = true;
    this.source.close();
  }

  setConnection(connection) {
    this.connection = connection;
    this.onChange();
  }

  handle(topic, message) {
    let data;
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    if (topic === 'state') this.handleState(data);
    else if (topic === 'moves') this.handleMove(data);
    else if (topic === 'clock') this.handleClock(data);
    else if (topic === 'analysis') this.analysis = withAnalysis(this.analysis, data);
    else if (topic === 'infractions' && data.infraction && this.state) {
      const list = (this.state.infractions || []).filter((i) => i.id !== data.infraction.id);
      this.state = { ...this.state, infractions: [...list, data.infraction] };
    } else if (topic === 'device' && data.device && this.state) {
      this.state = { ...this.state, device: data.device };
    }
    this.onChange();
  }

  handleState(state) {
    if (this.state && state.game === this.state.game && state.seq < this.state.seq) return;
    if (state.game !== this.game) {
      this.game = state.game;
      this.moves = [];
    }
    // A v1 state still carries its moves: take them rather than asking again.
    if (Array.isArray(state.moves)) this.moves = state.moves.slice();
    const { moves: _, ...slim } = state;
    this.state = slim;
    this.clockAt = performance.now();
    if ((state.move_number ?? 0) > this.moves.length) this.catchUp();
  }

  handleMove(event) {
    if (event.game && this.game !== undefined && event.game !== this.game) return;
    const moves = this.moves;
    if (event.event === 'move_played') {
      const record = recordOf(event);
      if (record.number === moves.length + 1) moves.push(record);
      else if (record.number <= moves.length) moves[record.number - 1] = record;
      else this.catchUp();
    } else if (event.event === 'correction') {
      const i = event.number - 1;
      if (i >= moves.length) return;
      if (event.now === 'none') moves.length = i;
      else moves[i] = {
        ...moves[i],
        point: event.now,
        time_left_ms: event.time_left_ms ?? moves[i].time_left_ms,
        periods_left: event.periods_left ?? moves[i].periods_left,
      };
    }
    this.moves = moves.slice();
  }

  handleClock(event) {
    if (event.clock && typeof event.clock === 'object' && this.state) {
      this.state = { ...this.state, clock: applyTick(this.state.clock, event.clock) };
      this.clockAt = performance.now();
    } else if (event.event === 'clock_call' || event.event === 'flag_fall') {
      this.onCall?.(event);
    }
  }

  /** Fetches the moves after the last one held, until the list reaches the state's move number. */
  async catchUp() {
    if (this.catching) {
      this.again = true;
      return;
    }
    this.catching = true;
    try {
      do {
        this.again = false;
        const since = this.moves.length;
        const body = await this.fetchMoves(since);
        if (this.closed) return;
        if (body.game !== undefined && body.game !== this.game) continue;
        const moves = this.moves.slice(0, since);
        for (const move of body.moves || []) {
          if (move.number === moves.length + 1) moves.push(move);
        }
        if (moves.length >= this.moves.length) this.moves = moves;
        this.onChange();
      } while (this.again);
    } catch (error) {
      console.warn(`moves of ${this.id}: ${error.message}`);
      setTimeout(() => !this.closed && this.catchUp(), 2000);
    } finally {
      this.catching = false;
    }
  }

  async fetchMoves(since) {
    try {
      return await getJson(`${boardPath(this.id)}/moves?since=${since}`);
    } catch (error) {
      if (error.status !== 404 || error.message.includes('unknown_board')) throw error;
      // A daemon from before GET /moves: its full state carries the move list.
      const state = await getJson(boardPath(this.id));
      return { game: state.game, moves: (state.moves || []).filter((m) => m.number > since) };
    }
  }
}

/** The live state, move list and connection of one board, re-rendering on every change. */
export function useBoardFeed(id, options) {
  const [, setVersion] = useState(0);
  const [feed, setFeed] = useState(null);
  useEffect(() => {
    let scheduled = false;
    const onChange = () => {
      if (scheduled) return;
      scheduled = true;
      requestAnimationFrame(() => {
        scheduled = false;
        setVersion((v) => v + 1);
      });
    };
    const f = new BoardFeed(id, onChange, options);
    setFeed(f);
    return () => f.close();
  }, [id]);
  return feed;
}
