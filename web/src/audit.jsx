// The game's audit trail as the console shows it: who ruled, when, at which move, what and the note, newest first.

/** The trail of `state.audit` (the state carries it live); `limit` entries, newest first. */
export function AuditTrail({ state, limit = 50 }) {
  const entries = [...(state.audit || [])].reverse().slice(0, limit);
  return (
    <section class="audit" aria-label="audit trail">
      <h3>Audit trail ({(state.audit || []).length})</h3>
      {entries.length === 0 ? <p class="hint">No arbiter action in this game yet.</p> : (
        <table>
          <thead><tr><th>#</th><th>time</th><th>arbiter</th><th>move</th><th>what</th><th>note</th></tr></thead>
          <tbody>
            {entries.map((e) => (
              <tr data-action={e.action} data-number={e.number}>
                <td>{e.number}</td>
                <td><time datetime={e.at}>{(e.at || '').slice(11, 19)}</time></td>
                <td class="by">{e.by}</td>
                <td>{e.move_number}</td>
                <td class="what">{e.what}</td>
                <td class="note">{e.note ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
