/**
 * A password typed into the web terminal before the session opens: no echo, Backspace edits,
 * Enter ends it, Ctrl-C or Ctrl-D cancel. Escape sequences (arrow keys, function keys) are
 * ignored. The text lives only here until it is handed over once.
 */

/** Longer than any password a target would take; more is cut off. */
const PASSWORD_MAX = 1024;
/* eslint-disable no-control-regex -- terminal keys are control bytes */
const ESCAPE_SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|.)?/g;
/* eslint-enable no-control-regex */

export interface PasswordPrompt {
  /** Keys as the terminal sent them. */
  push(data: Buffer): void;
  /** Drops what was typed, without an answer. */
  cancel(): void;
}

/** `done` gets the password at Enter, or undefined when the member cancels. */
export function createPasswordPrompt(done: (password: string | undefined) => void): PasswordPrompt {
  let typed = '';
  let over = false;
  const finish = (password: string | undefined): void => {
    if (over) return;
    over = true;
    typed = '';
    done(password);
  };
  return {
    push(data) {
      if (over) return;
      for (const char of data.toString('utf8').replace(ESCAPE_SEQUENCE, '')) {
        if (char === '\r' || char === '\n') return finish(typed);
        if (char === '\x03' || (char === '\x04' && typed.length === 0)) return finish(undefined);
        if (char === '\x7f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else if (char === '\x15')
          typed = ''; // Ctrl-U: start over
        else if (char >= ' ' && typed.length < PASSWORD_MAX) typed += char;
      }
    },
    cancel() {
      over = true;
      typed = '';
    },
  };
}
