// The one formatter of results and leads for every page: the margin always with its unit (stones under CN2002 and the historical rules, points under JK and Ing).

const REASONS = { R: 'resignation', Resign: 'resignation', T: 'time', Time: 'time', F: 'forfeit', Forfeit: 'forfeit' };

/** The unit of a board's margins: the state's `result_unit`, else the ruleset's. */
export function unitOf(state) {
  if (state?.result_unit === 'stones' || state?.result_unit === 'points') return state.result_unit;
  return state?.ruleset === 'jk' || state?.ruleset === 'ing' ? 'points' : 'stones';
}

function unitWord(margin, unit) {
  const one = Math.abs(margin) === 1;
  if (unit === 'points') return one ? 'point' : 'points';
  return one ? 'stone' : 'stones';
}

/** "W+3.75" in `unit` as "W+3.75 stones"; "B+R" as "B+R (resignation)"; "0" as "draw (jigo)". */
export function formatResult(result, unit) {
  if (!result) return '';
  if (result === '0' || /^(draw|jigo)$/i.test(result)) return 'draw (jigo)';
  const match = /^([BW])\+(.+)$/.exec(result);
  if (!match) return result;
  const [, side, rest] = match;
  if (REASONS[rest]) return `${side}+${rest} (${REASONS[rest]})`;
  const margin = Number(rest);
  if (!Number.isFinite(margin)) return result;
  return `${side}+${rest} ${unitWord(margin, unit)}`;
}

/** The result of a state, formatted: final, else proposed (with "proposed"), else ''. */
export function resultOf(state) {
  const unit = unitOf(state);
  if (state?.result) return formatResult(state.result, unit);
  if (state?.proposed_result) return `${formatResult(state.proposed_result, unit)} (proposed)`;
  return '';
}

/** Black's lead in points (an engine's) as "B+3.5 points" or, in stones, "B+1.8 stones". */
export function formatLead(points, unit) {
  if (typeof points !== 'number' || !Number.isFinite(points)) return '';
  const value = unit === 'points' ? points : points / 2;
  const rounded = Math.round(Math.abs(value) * 10) / 10;
  if (rounded === 0) return 'even';
  return `${value > 0 ? 'B' : 'W'}+${rounded} ${unitWord(rounded, unit)}`;
}
