// Talking to the daemon: JSON requests, the arbiter token (session storage only, never a URL) and readable errors.

const TOKEN_KEY = 'goban-bridge.arbiter-token';

export const token = {
  read: () => sessionStorage.getItem(TOKEN_KEY) || '',
  write: (value) => sessionStorage.setItem(TOKEN_KEY, value),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** An error answer of the API, with its status and the sentence to show. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** The headers of a request, with the arbiter token when `auth`. */
export function headers(auth, extra = {}) {
  const out = { Accept: 'application/json', ...extra };
  const t = auth ? token.read() : '';
  if (t) out.Authorization = `Bearer ${t}`;
  return out;
}

async function errorOf(response) {
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    // RFC 9457 problem details, or the older {"error", "detail"} body.
    const detail = body.detail ?? body.title ?? body.error;
    const text = typeof detail === 'string' ? detail : detail?.message ?? JSON.stringify(detail);
    message = `${response.status} ${body.error ?? body.title ?? response.statusText}: ${text}`;
  } catch {
    // not JSON: keep the status line
  }
  return new ApiError(response.status, message);
}

/** GET a JSON document; `auth` adds the arbiter token. */
export async function getJson(path, { auth = false, signal } = {}) {
  const response = await fetch(path, { headers: headers(auth), signal });
  if (!response.ok) throw await errorOf(response);
  return response.json();
}

/** POST a JSON body as the arbiter; answers the new board state. */
export async function post(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: headers(true, { 'Content-Type': 'application/json' }),
    body: JSON.stringify(body ?? {}),
  });
  if (!response.ok) throw await errorOf(response);
  const type = response.headers.get('content-type') || '';
  return type.includes('json') ? response.json() : null;
}

export const boardPath = (id) => `/api/v1/boards/${encodeURIComponent(id)}`;

/** The list of board states, whether the daemon answers an array or `{"boards": [...]}`. */
export function boardsOf(body) {
  return Array.isArray(body) ? body : body?.boards ?? [];
}
