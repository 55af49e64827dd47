// The tournament desk's alerts in the arbiter console: a target refusing a result again and again, a board result against a ruling.
import { useEffect, useState } from 'preact/hooks';
import { getJson } from './api.js';

/** How often the console asks GET /api/v1/tournament/alerts (the desk has no stream of its own). */
const POLL_MS = 5000;

const KIND_WORDS = {
  push_refused: 'result refused',
  ruling_disagrees: 'board against ruling',
};

/** The desk's alerts, polled; nothing shown while there are none or the desk is not running. */
export function DeskAlerts() {
  const [alerts, setAlerts] = useState([]);
  useEffect(() => {
    let live = true;
    const poll = async () => {
      try {
        const list = await getJson('/api/v1/tournament/alerts', { auth: true });
        if (live) setAlerts(Array.isArray(list) ? list : []);
      } catch {
        // A daemon without the desk (503) or a moment away: keep what was shown.
      }
    };
    poll();
    const timer = setInterval(poll, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);
  if (alerts.length === 0) return null;
  return (
    <>
      <h2>Tournament desk ({alerts.length})</h2>
      <ul class="alerts desk-alerts">
        {alerts.map((a) => (
          <li key={`${a.kind}-${a.target}-${a.round}-${a.table}`} class="alert open desk-alert" data-kind={a.kind}>
            <strong>{KIND_WORDS[a.kind] ?? a.kind}</strong> · round {a.round} table {a.table} · {a.target}
            {a.count > 1 && <> · seen {a.count} times</>}
            <p>{a.message}</p>
          </li>
        ))}
      </ul>
    </>
  );
}
