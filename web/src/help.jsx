// The console's own help: what each control does, the rules it applies, and the keyboard shortcuts.

const CONTROLS = [
  ['on my way', 'Takes the alert: every arbiter sees your name on it ("on the way"), so two arbiters do not walk to the same table. "take over" takes one another arbiter took; "hand back" frees it. The game is not touched.'],
  ['confirm / sanction', 'The infraction happened: the sanction the article names is applied (a warning, a void move, a loss). An alert takes one ruling; it is final.'],
  ['dismiss', 'No infraction: the alert closes and an automatic sanction is undone.'],
  ['convert to pass', 'Time forfeit only: on the player\'s request the flag fall becomes a pass and the same byo-yomi continues (CN2002 22.5).'],
  ['void / restore move', 'A move counts as a pass, or comes back; later moves are replayed. Shown only for a stone of the record (never for a time forfeit or a late start).'],
  ['pause / resume clock, add / take', 'Stops or restarts the clocks (CN2002 14); corrects one side\'s time after a clock fault (22.8-22.9). Not on a finished or sealed game.'],
  ['declare late', 'A player absent when the clock started (CN2002 22): within the limit (15 min on site, 60 min apart, or the tournament\'s own) the absence is deducted twice over and nothing is left to rule; beyond it the alert advises the loss; both late, each is judged alone. Without main time, or with main time no longer than the limit, nothing is deducted: the clock counts the player out (22.4). Only before that player\'s first move; after an adjournment the clock simply ran.'],
  ['seal move and adjourn / unseal', 'The next move is sealed and both clocks stop (CN2002 14); unsealing resumes play and reads the sealed move off the board.'],
  ['set / correct result', 'Records a result such as B+R, W+T, B+F, W+2.5, 0 (draw) or Void, or corrects one already recorded. Ending a game still in play needs the "force" box.'],
  ['start game', 'A new game with its players, ruleset (komi follows the ruleset), handicap (free placement from 2 stones), time control. Over a game still in play it needs the "force" box: that game is abandoned without a result.'],
  ['counting', 'Click a group to mark it dead (or in seki); confirm the counted result, or resume play when the players dispute (CN2002 21.4).'],
  ['audit trail', 'Every arbiter action of the game: when, who (the name your token carries), at which move, what, and the note.'],
  ['print result slip', 'The table\'s result slip (players, result, time left, warnings, arbiter, signature lines) through the browser\'s print.'],
];

const KEYS = [
  ['j / k', 'next / previous alert in the list'],
  ['a', 'on my way (take the selected alert)'],
  ['c', 'confirm the selected alert'],
  ['s', 'sanction the selected alert'],
  ['d', 'dismiss the selected alert'],
  ['?', 'open or close this help'],
];

export function ConsoleHelp({ open, onToggle }) {
  return (
    <details class="help" open={open} onToggle={(e) => onToggle(e.currentTarget.open)}>
      <summary>help: what each control does</summary>
      <dl>{CONTROLS.map(([name, what]) => <><dt>{name}</dt><dd>{what}</dd></>)}</dl>
      <h3>Keyboard</h3>
      <dl class="keys">{KEYS.map(([key, what]) => <><dt><kbd>{key}</kbd></dt><dd>{what}</dd></>)}</dl>
      <p class="hint">Keys act when no text field has the focus; the selected alert has a blue edge.</p>
    </details>
  );
}
