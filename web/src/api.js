// Talking to the daemon: JSON requests, the arbiter token (session storage only, never a URL) and readable errors.

const TOKEN_KEY = 'goban-bridge.arbiter-token';

export const token = {
  read: () => sessionStorage.getItem(TOKEN_KEY) || '',
  write: (value) => sessionStorage.setItem(TOKEN_KEY, value),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

const refusedListeners = new Set();

/** Calls `listener` whenever the daemon refuses the stored token; answers the unsubscribe function. */
export function onTokenRefused(listener) {
  refusedListeners.add(listener);
  return () => refusedListeners.delete(listener);
}

/**
 * The daemon answered 401 to a request that carried `sent`: a wrong token, or one from before the daemon
 * restarted with other tokens. It is forgotten, so the console asks for it again instead of keeping it
 * in the session; a token entered since is kept.
 */
export function tokenRefused(sent) {
  if (!sent || token.read() !== sent) return;
  token.clear();
  for (const listener of refusedListeners) listener();
}

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

/** The error of a failed answer; a 401 to a request that carried the token forgets the token. */
async function failure(response, sent) {
  if (response.status === 401) tokenRefused(sent);
  return errorOf(response);
}

/** GET a JSON document; `auth` adds the arbiter token. */
export async function getJson(path, { auth = false, signal } = {}) {
  const sent = auth ? token.read() : '';
  const response = await fetch(path, { headers: headers(auth), signal });
  if (!response.ok) throw await failure(response, sent);
  return response.json();
}

/** POST a JSON body as the arbiter; answers the new board state. */
export async function post(path, body) {
  const sent = token.read();
  const response = await fetch(path, {
    method: 'POST',
    headers: headers(true, { 'Content-Type': 'application/json' }),
    body: JSON.stringify(body ?? {}),
  });
  if (!response.ok) throw await failure(response, sent);
  const type = response.headers.get('content-type') || '';
  return type.includes('json') ? response.json() : null;
}

export const boardPath = (id) => `/api/v1/boards/${encodeURIComponent(id)}`;

/** The list of board states, whether the daemon answers an array or `{"boards": [...]}`. */
export function boardsOf(body) {
  return Array.isArray(body) ? body : body?.boards ?? [];
}
