/** A logger that keeps its JSON lines, for asserting what was (and was not) logged. */
import { createLogger, type Logger } from '../core/logger';

export function collectLogs(): {
  logger: Logger;
  lines: string[];
  records: () => Record<string, unknown>[];
} {
  const lines: string[] = [];
  const logger = createLogger({ level: 'trace', write: (line) => lines.push(line) });
  return {
    logger,
    lines,
    records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
