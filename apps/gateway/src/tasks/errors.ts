/**
 * Errors a task may end with whose message is fixed text of ours, so it can travel back to the
 * server in `task_result.error`. Any other error is reported as 'internal_error' (its message
 * might carry input, and input can carry a credential).
 */
export class TaskInputError extends Error {
  override readonly name: string = 'TaskInputError';
}

export class TaskCancelledError extends Error {
  override readonly name = 'TaskCancelledError';
  constructor() {
    super('cancelled');
  }
}

/** The text sent back for a task that could not run. */
export function taskErrorText(err: unknown): string {
  if (err instanceof TaskInputError || err instanceof TaskCancelledError) return err.message;
  return 'internal_error';
}
