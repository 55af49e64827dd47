// GET /arbiter: the console. The token is entered once, kept in sessionStorage and sent only as a header.
// Alerts filtered by table, kind and status; keyboard shortcuts for the common rulings (help.jsx).
import { useEffect, useMemo, useState } from 'preact/hooks';
import { boardPath, getJson, onTokenRefused, post, token } from './api.js';
import { AlertCard, SightProblem, kindWords } from './alerts.jsx';
import { ConsoleHelp } from './help.jsx';
import { useWindowSize } from './board.jsx';
import { DeskAlerts } from './deskalerts.jsx';
import { BoardPanel } from './control.jsx';
import { HallFeed } from './hallfeed.js';
import { callWords, chime, flagWords, speak } from './speech.js';

function Login({ message, onDone }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState(message);
  const submit = async (e) => {
    e.preventDefault();
    if (!value.trim()) {
      // A blank token would send no header at all, and the public answer would look like a success.
      setError('Enter the arbiter token.');
      return;
    }
    token.write(value.trim());
    try {
      await getJson('/api/v1/boards', { auth: true });
      onDone();
    } catch (err) {
      token.clear();
      setError(err.status === 401 ? 'The daemon refused this token.' : err.message);
    }
  };
  return (
    <main class="login">
      <h1>Arbiter console</h1>
      <form onSubmit={submit}>
        <label for="token">arbiter token</label>
        <input id="token" type="password" autocomplete="current-password" value={value}
          onInput={(e) => setValue(e.currentTarget.value)} required />
        <button type="submit">enter</button>
        {error && <p class="error" role="alert">{error}</p>}
      </form>
      <p class="hint">The token stays in this browser tab's session and is never put in a URL.</p>
    </main>
  );
}

const REFUSED = 'The daemon refused the token: enter it again.';

/** Settings of the console that the feed's callbacks read without re-creating the feed. */
const settings = { sound: true, speech: false, lang: 'zh', speechBoard: '' };

/** Whether a key press belongs to a text field rather than to the console's shortcuts. */
const typing = (e) => e.target.closest?.('input, select, textarea, [contenteditable]') || e.ctrlKey || e.metaKey || e.altKey;

/** The console's keys: j/k move through the open alerts, a takes, c/s/d rule on the selected one, ? opens the help. */
function useShortcuts({ open, current, setFocus, setSelected, setHelp, apply, setKeyError }) {
  const ref = useMemo(() => ({}), []);
  Object.assign(ref, { open, current });
  useEffect(() => {
    const act = async (path, body) => {
      setKeyError(null);
      try {
        const state = await post(path, body);
        if (state?.board) apply(state);
      } catch (err) {
        setKeyError(err.message);
      }
    };
    const onKey = (e) => {
      if (typing(e)) return;
      const { open: list, current: at } = ref;
      const index = list.findIndex((a) => a === at);
      const move = (step) => {
        const next = list[(index + step + list.length) % list.length];
        if (next) { setFocus(next.alert.id); setSelected(next.id); }
      };
      const base = at && `${boardPath(at.id)}/infractions/${encodeURIComponent(at.alert.id)}`;
      const keys = {
        j: () => move(1),
        k: () => move(-1),
        a: () => base && act(`${base}/acknowledge`, {}),
        c: () => base && act(`${base}/ruling`, { action: 'confirm' }),
        s: () => base && act(`${base}/ruling`, { action: 'sanction' }),
        d: () => base && act(`${base}/ruling`, { action: 'dismiss' }),
        '?': () => setHelp((h) => !h),
      };
      const run = keys[e.key];
      if (run) { e.preventDefault(); run(); }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

function Console({ onLogout }) {
  const [version, setVersion] = useState(0);
  const [status, setStatus] = useState('connecting');
  const [selected, setSelected] = useState('');
  const [prefs, setPrefs] = useState({ ...settings });
  const [filter, setFilter] = useState({ table: '', kind: '', status: 'open' });
  const [focus, setFocus] = useState('');
  const [help, setHelp] = useState(false);
  const [keyError, setKeyError] = useState(null);
  const [me, setMe] = useState('');
  // How the audit trail names this token's arbiter: their own alerts offer "hand back", not "take over".
  useEffect(() => {
    getJson('/api/v1/arbiter/me', { auth: true }).then((body) => setMe(body.name)).catch(() => {});
  }, []);
  const win = useWindowSize();
  const feed = useMemo(() => {
    let scheduled = false;
    const bump = () => {
      if (scheduled) return;
      scheduled = true;
      requestAnimationFrame(() => {
        scheduled = false;
        setVersion((v) => v + 1);
      });
    };
    return new HallFeed({
      auth: true,
      onBoard: bump,
      onList: bump,
      onStatus: (s) => {
        setStatus(s);
        if (s === 'unauthorized') onLogout(REFUSED);
      },
      onEvent: (topic, data) => {
        if (topic === 'infractions' && data.event === 'infraction_raised' && settings.sound) chime();
        if (topic === 'clock' && settings.speech && data.board === settings.speechBoard) {
          if (data.event === 'clock_call') speak(callWords(data, settings.lang), settings.lang);
          if (data.event === 'flag_fall') speak(flagWords(data.color, settings.lang), settings.lang);
        }
      },
    });
  }, []);
  useEffect(() => () => feed.close(), []);
  const setPref = (key, value) => {
    settings[key] = value;
    setPrefs({ ...settings });
  };
  const ids = [...feed.boards.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const board = selected || ids[0] || '';
  useEffect(() => {
    if (!settings.speechBoard && board) setPref('speechBoard', board);
  }, [board]);
  const alerts = ids.flatMap((id) => (feed.boards.get(id).infractions || []).map((alert) => ({ id, alert })));
  alerts.sort((a, b) => (a.alert.status === 'open') - (b.alert.status === 'open') || a.alert.at.localeCompare(b.alert.at)).reverse();
  const kinds = [...new Set(alerts.map((a) => a.alert.kind))].sort();
  const matches = ({ id, alert }) => (!filter.table || id === filter.table) && (!filter.kind || alert.kind === filter.kind);
  const byStatus = {
    open: () => true,
    waiting: (a) => !a.alert.taken_by,
    taken: (a) => Boolean(a.alert.taken_by),
  }[filter.status] ?? (() => true);
  const allOpen = alerts.filter((a) => a.alert.status === 'open');
  const open = allOpen.filter(matches).filter(byStatus);
  const closed = alerts.filter((a) => a.alert.status !== 'open').filter(matches).slice(0, 20);
  const apply = (state) => feed.put(state);
  const current = open.find((a) => a.alert.id === focus) ?? open[0];
  useShortcuts({ open, current, setFocus, setSelected, setHelp, apply, setKeyError });
  const state = feed.boards.get(board);
  const pixels = Math.min(win.width >= 900 ? 520 : win.width - 24, 640);
  return (
    <>
      <header class="top">
        <h1>Arbiter console</h1>
        <span class="summary" data-version={version}>{ids.length} boards · {allOpen.length} open alerts</span>
        <span class={`conn ${status}`} role="status">{status}</span>
        {me && <span class="me">signed in as <strong>{me}</strong></span>}
        <label class="toggle"><input type="checkbox" checked={prefs.sound} onChange={(e) => setPref('sound', e.currentTarget.checked)} /> sound</label>
        <label class="toggle"><input type="checkbox" checked={prefs.speech} onChange={(e) => setPref('speech', e.currentTarget.checked)} /> count-out voice</label>
        <label>for <select value={prefs.speechBoard} onChange={(e) => setPref('speechBoard', e.currentTarget.value)}>
          {ids.map((id) => <option value={id}>{id}</option>)}
        </select></label>
        <label>in <select value={prefs.lang} onChange={(e) => setPref('lang', e.currentTarget.value)}>
          <option value="zh">中文 Chinese</option><option value="en">English</option>
        </select></label>
        <button type="button" onClick={() => { token.clear(); onLogout(''); }}>log out</button>
      </header>
      <main class="console">
        <section class="alerts-col" aria-label="alerts">
          <ConsoleHelp open={help} onToggle={setHelp} />
          <DeskAlerts />
          <div class="filters" role="group" aria-label="filter alerts">
            <label>table <select name="table" value={filter.table} onChange={(e) => setFilter({ ...filter, table: e.currentTarget.value })}>
              <option value="">all</option>{ids.map((id) => <option value={id}>{id}</option>)}
            </select></label>
            <label>kind <select name="kind" value={filter.kind} onChange={(e) => setFilter({ ...filter, kind: e.currentTarget.value })}>
              <option value="">all</option>{kinds.map((k) => <option value={k}>{kindWords(k)}</option>)}
            </select></label>
            <label>status <select name="status" value={filter.status} onChange={(e) => setFilter({ ...filter, status: e.currentTarget.value })}>
              <option value="open">open</option><option value="waiting">nobody on the way</option><option value="taken">someone on the way</option>
            </select></label>
          </div>
          <h2>Open alerts ({open.length}{open.length !== allOpen.length ? ` of ${allOpen.length}` : ''})</h2>
          {keyError && <p class="error" role="alert">{keyError}</p>}
          <ul class="alerts">
            {open.map(({ id, alert }) => (
              <AlertCard key={alert.id} board={id} alert={alert} state={feed.boards.get(id)} apply={apply} me={me}
                selected={current?.alert.id === alert.id} onSelect={() => { setFocus(alert.id); setSelected(id); }} />
            ))}
          </ul>
          <h2>Boards that cannot see</h2>
          <ul class="sights">
            {ids.map((id) => <SightProblem key={id} board={id} state={feed.boards.get(id)} />)}
          </ul>
          <details>
            <summary>Closed alerts ({closed.length})</summary>
            <ul class="alerts">
              {closed.map(({ id, alert }) => <AlertCard key={alert.id} board={id} alert={alert} state={feed.boards.get(id)} apply={apply} />)}
            </ul>
          </details>
        </section>
        <section class="board-col" aria-label="board">
          <label>board <select value={board} onChange={(e) => setSelected(e.currentTarget.value)}>
            {ids.map((id) => <option value={id}>{id}</option>)}
          </select></label>
          {state && <BoardPanel key={board} id={board} state={state} clockAt={feed.clockAt.get(board)} apply={apply} pixels={pixels} />}
        </section>
      </main>
    </>
  );
}

export function Arbiter() {
  const [message, setMessage] = useState(null);
  const [inside, setInside] = useState(() => Boolean(token.read()));
  // Any 401 to the token (an action, the stream, a reload after the daemon restarted with other tokens)
  // has forgotten it (api.js): ask for it again rather than stay in a console that cannot act.
  useEffect(() => onTokenRefused(() => {
    setMessage(REFUSED);
    setInside(false);
  }), []);
  if (!inside) return <Login message={message} onDone={() => setInside(true)} />;
  return <Console onLogout={(m) => { setMessage(m); setInside(false); }} />;
}
