// The engine's analysis of one board as the pages hold it: the latest released analysis and Black's lead over the game, from GET /analysis and the stream's `analysis` events.

/** Nothing known yet (`enabled` null until the daemon answered). */
export function emptyAnalysis() {
  return { enabled: null, engine: null, offReason: null, latest: null, history: [] };
}

function pointOf(analysis) {
  return {
    move_number: analysis.move_number,
    position_seq: analysis.position_seq,
    score_lead: analysis.score_lead ?? null,
    winrate: analysis.winrate ?? null,
    best: analysis.candidates?.[0]?.point ?? null,
  };
}

/** The history with `point` in its place: a voided move takes the later points with it. */
function withPoint(history, point) {
  const kept = history.filter((p) => p.move_number < point.move_number);
  kept.push(point);
  return kept;
}

/** `held` after the `GET /boards/{b}/analysis` answer `page`. */
export function withPage(held, page) {
  if (!page) return held;
  const latest = newer(held.latest, page.latest);
  let history = Array.isArray(page.history) ? page.history.slice() : [];
  if (held.latest && held.latest === latest && held.latest.game === page.latest?.game) {
    history = withPoint(history, pointOf(held.latest));
  }
  return { enabled: !!page.enabled, engine: page.engine ?? null, offReason: page.off_reason ?? null, latest, history };
}

/** `held` after an `analysis` event. */
export function withAnalysis(held, analysis) {
  if (!analysis || typeof analysis.position_seq !== 'number') return held;
  const sameGame = held.latest?.game === analysis.game;
  const latest = newer(sameGame ? held.latest : null, analysis);
  const history = withPoint(sameGame ? held.history : [], pointOf(analysis));
  return { ...held, enabled: true, engine: analysis.engine ?? held.engine, offReason: null, latest, history };
}

function newer(a, b) {
  if (!a) return b ?? null;
  if (!b) return a;
  if (a.game !== b.game) return b;
  return b.position_seq >= a.position_seq ? b : a;
}

/** The analysis of the position shown, if the engine's latest is about it. */
export function analysisOf(held, state) {
  const latest = held?.latest;
  if (!latest || !state) return null;
  return latest.game === state.game && latest.move_number === state.move_number ? latest : null;
}
