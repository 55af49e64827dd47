// The engine beside the board: Black's lead as a bar, the lead over the game as a graph, the engine and its budget, and its candidate moves as a list.
import { formatLead } from './result.js';

/** Black's share of the bar in percent: the win rate when the engine has one, else the lead (30 points fill it). */
export function blackShare(analysis) {
  if (typeof analysis?.winrate === 'number') return Math.round(analysis.winrate * 1000) / 10;
  const lead = analysis?.score_lead;
  if (typeof lead !== 'number') return 50;
  return 50 + (Math.max(-30, Math.min(30, lead)) / 30) * 50;
}

/** The words of the bar: "B+1.8 stones · Black 62% · move 40". */
export function leadWords(analysis, unit) {
  const parts = [formatLead(analysis.score_lead, unit)];
  if (typeof analysis.winrate === 'number') parts.push(`Black ${Math.round(analysis.winrate * 100)}%`);
  parts.push(`move ${analysis.move_number}`);
  return parts.filter(Boolean).join(' · ');
}

export function LeadBar({ analysis, unit }) {
  if (!analysis || (analysis.score_lead == null && analysis.winrate == null)) return null;
  const share = blackShare(analysis);
  const words = leadWords(analysis, unit);
  return (
    <div class="lead" data-seq={analysis.position_seq} data-move={analysis.move_number} data-lead={analysis.score_lead ?? ''}>
      <div class="lead-bar" role="meter" aria-label="Black's share by the engine" aria-valuemin="0" aria-valuemax="100"
        aria-valuenow={share} aria-valuetext={words}>
        <span class="lead-black" style={{ width: `${share}%` }} />
      </div>
      <span class="lead-text">{words}</span>
    </div>
  );
}

const W = 300;
const H = 80;

/** Black's lead over the game, one point per analysed position; `shown` marks the move on the board. */
export function LeadGraph({ history, total, shown }) {
  const points = (history || []).filter((p) => typeof p.score_lead === 'number');
  if (points.length === 0) return null;
  const last = Math.max(total || 0, ...points.map((p) => p.move_number), 1);
  const span = Math.max(10, ...points.map((p) => Math.abs(p.score_lead)));
  const x = (n) => (n / last) * W;
  const y = (lead) => H / 2 - (lead / span) * (H / 2 - 2);
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(p.move_number).toFixed(1)} ${y(p.score_lead).toFixed(1)}`).join('');
  return (
    <svg class="lead-graph" viewBox={`0 0 ${W} ${H}`} role="img" data-points={points.length}
      aria-label={`Black's lead over the game: ${points.length} positions analysed`}>
      <rect class="white-side" x="0" y={H / 2} width={W} height={H / 2} />
      <line class="zero" x1="0" x2={W} y1={H / 2} y2={H / 2} />
      <path class="line" d={path} />
      {shown != null && <line class="shown" x1={x(shown)} x2={x(shown)} y1="0" y2={H} />}
    </svg>
  );
}

/** "GNU Go 3.8 · 5s per position", or why analysis is off. */
export function EngineNote({ held }) {
  if (!held || held.enabled == null) return null;
  if (!held.enabled) {
    return <p class="engine off" data-engine="off">analysis off{held.offReason ? `: ${held.offReason}` : ''}</p>;
  }
  const engine = held.engine;
  return (
    <p class="engine" data-engine={engine?.name ?? ''}>
      engine: {engine?.name ?? 'starting'}{engine?.budget ? ` · ${engine.budget}` : ''}
    </p>
  );
}

/** The engine's moves for the side to move, best first, as the board labels them (1, 2, ...). */
export function CandidateList({ analysis, unit }) {
  const moves = analysis?.candidates || [];
  if (moves.length === 0) return <p class="candidates empty">no candidate moves for this position</p>;
  return (
    <ol class="candidates" aria-label="engine's candidate moves">
      {moves.map((m) => (
        <li key={m.point} data-point={m.point}>
          <span class="pt">{m.point}</span>
          {typeof m.score_lead === 'number' && <span class="v">{formatLead(m.score_lead, unit)}</span>}
          {typeof m.winrate === 'number' && <span class="v">B {Math.round(m.winrate * 100)}%</span>}
          {typeof m.visits === 'number' && <span class="v">{m.visits} visits</span>}
          {typeof m.value === 'number' && <span class="v">value {m.value}</span>}
        </li>
      ))}
    </ol>
  );
}
