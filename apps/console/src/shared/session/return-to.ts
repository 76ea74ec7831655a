/**
 * Where to come back to after signing in: a page opened in a tab of its own (the playback
 * page, from the action log) whose session had ended sends the member to /login, and the
 * login lands them back on it rather than on their role's landing page. Kept for this tab
 * only (sessionStorage), taken once, and only ever a path of this console.
 */
const KEY = 'portcullis.returnTo';

export function rememberReturn(path: string): void {
  sessionStorage.setItem(KEY, path);
}

export function takeReturn(): string | null {
  const path = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  // A path of this origin only: never `//host/…` or an absolute URL.
  return path && path.startsWith('/') && !path.startsWith('//') ? path : null;
}
