/**
 * Starts the test identity provider (idp.ts) as a child process and plays the browser's part
 * at it over real HTTP: open the redirect URL, fill in the login form, read the form that would
 * post the SAMLResponse back to our ACS.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const IDP_PASSWORD = 'idp-secret-for-tests';

export interface TestIdp {
  base: string;
  entityId: string;
  metadataXml: () => Promise<string>;
  stop: () => Promise<void>;
}

export async function startTestIdp(sp: { entityId: string; acsUrl: string }): Promise<TestIdp> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'idp.ts');
  const child: ChildProcess = fork(script, [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      IDP_SP_ENTITY_ID: sp.entityId,
      IDP_SP_ACS_URL: sp.acsUrl,
      IDP_PASSWORD,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ base: string; entityId: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('test IdP did not start')), 30_000);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve(m as { base: string; entityId: string });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`test IdP exited with ${code}`));
    });
  });
  return {
    ...ready,
    metadataXml: async () => (await fetch(`${ready.base}/metadata`)).text(),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}

function unescapeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The hidden and named inputs of the first form of a page, and its action. */
export function readForm(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1];
  if (action === undefined) throw new Error(`no form in: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input([^>]*)>/g)) {
    const attrs = m[1] ?? '';
    const name = /name="([^"]*)"/.exec(attrs)?.[1];
    if (name) fields[name] = unescapeHtml(/value="([^"]*)"/.exec(attrs)?.[1] ?? '');
  }
  return { action: unescapeHtml(action), fields };
}

export interface IdpAnswer {
  /** Where the browser would post: our ACS URL. */
  action: string;
  SAMLResponse: string;
  RelayState?: string;
}

/**
 * Follows our redirect to the provider, signs in there as `email`, and returns the form the
 * provider hands back to the browser.
 */
export async function signInAtIdp(
  redirectUrl: string,
  email: string,
  options: { variant?: string; name?: string; password?: string } = {},
): Promise<IdpAnswer> {
  const loginPage = await fetch(redirectUrl);
  const html = await loginPage.text();
  if (loginPage.status !== 200) throw new Error(`IdP refused the request: ${html}`);
  const login = readForm(html);
  const body = new URLSearchParams({
    ...login.fields,
    email,
    name: options.name ?? '',
    password: options.password ?? IDP_PASSWORD,
    variant: options.variant ?? '',
  });
  const answer = await fetch(login.action, { method: 'POST', body });
  const answerHtml = await answer.text();
  if (answer.status !== 200) throw new Error(`IdP login failed: ${answerHtml}`);
  const post = readForm(answerHtml);
  const samlResponse = post.fields.SAMLResponse;
  if (!samlResponse) throw new Error('no SAMLResponse in the IdP answer');
  return {
    action: post.action,
    SAMLResponse: samlResponse,
    ...(post.fields.RelayState && { RelayState: post.fields.RelayState }),
  };
}
