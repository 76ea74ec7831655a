/**
 * The web terminal in the Connect panel and on the full-page terminal (issue 6): asks the server for a single-use token, opens
 * the gateway's terminal WebSocket, and renders the shell with xterm.js, the only place terminal
 * output (untrusted) is drawn. The terminal follows the panel's size (fit addon + resize
 * message), input and output are UTF-8 bytes, and a message says why the session ended: the
 * gateway's catalogue codes (the end, and a cut's reason) in the reader's language. Output is
 * acknowledged as xterm.js draws it (contract WEB_TERMINAL_ACK_BYTES), so that a flood waits at
 * the target rather than in this page, and Ctrl-C stops it at once.
 * Loaded lazily: xterm.js is only fetched by members who open a terminal.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import {
  WEB_TERMINAL_ACK_BYTES,
  WebTerminalServerMessageSchema,
  type WebTerminalServerMessage,
  type WebTerminalTokenReply,
} from '@portcullis/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useErrorText } from '../../../shared/i18n/errors';
import { onlineKeys } from '../../../shared/online/api';
import { useWebTerminalTokenMutation } from '../api';
import { closedText } from './web-terminal-closed';

type Closed = Extract<WebTerminalServerMessage, { type: 'closed' }>;
type Status = { kind: 'open' } | { kind: 'closed'; closed: Closed | null };

function parse(text: string): WebTerminalServerMessage | null {
  try {
    const parsed = WebTerminalServerMessageSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** One terminal session on a token; a new token (Reconnect) mounts a new one. */
function Session({
  ticket,
  fill,
  onStatus,
}: {
  ticket: WebTerminalTokenReply;
  fill: boolean;
  onStatus: (status: Status) => void;
}): ReactNode {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const term = new Terminal({ cursorBlink: true, fontSize: 13, scrollback: 5000 });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(element);
    fit.fit();
    // In the Connect drawer the box sits below the connection details: shown whole, not just
    // down to the line the cursor is on (focusing the terminal scrolls only that far).
    const reveal = (): void => element.scrollIntoView?.({ block: 'nearest' });
    reveal();
    const encoder = new TextEncoder();
    const ws = new WebSocket(ticket.url);
    ws.binaryType = 'arraybuffer';
    let closed: Closed | null = null;
    const send = (message: object) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    };
    // Bytes received since the last ack; the ack goes once xterm.js has drawn them.
    let undrawn = 0;
    const draw = (data: Uint8Array): void => {
      undrawn += data.length;
      if (undrawn < WEB_TERMINAL_ACK_BYTES) return term.write(data);
      const bytes = undrawn;
      undrawn = 0;
      term.write(data, () => send({ type: 'ack', bytes }));
    };
    ws.onopen = () => {
      send({ type: 'auth', token: ticket.token, cols: term.cols, rows: term.rows, ack: true });
      // A login user with its own password is asked for it here, before the session is ready.
      term.focus();
    };
    ws.onmessage = (event: MessageEvent<ArrayBuffer | string>) => {
      if (typeof event.data !== 'string') return draw(new Uint8Array(event.data));
      const message = parse(event.data);
      if (message?.type === 'ready') {
        onStatus({ kind: 'open' });
        term.focus();
        reveal();
      } else if (message?.type === 'closed') closed = message;
    };
    ws.onclose = () => onStatus({ kind: 'closed', closed });
    const input = term.onData((data) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(encoder.encode(data));
    });
    const resized = term.onResize(({ cols, rows }) => send({ type: 'resize', cols, rows }));
    // The panel can be dragged wider and the window resized: the terminal follows its box.
    const observer = new ResizeObserver(() => fit.fit());
    observer.observe(element);
    return () => {
      observer.disconnect();
      input.dispose();
      resized.dispose();
      ws.onclose = null;
      ws.close();
      term.dispose();
    };
  }, [ticket, onStatus]);

  return (
    <div
      ref={box}
      className={fill ? 'pc-web-terminal pc-web-terminal--fill' : 'pc-web-terminal'}
      role="region"
      aria-label={t('workgroup.connect.terminal.region')}
    />
  );
}

export interface WebTerminalProps {
  projectResourceId: number;
  /** Connect at once (the full-page terminal) instead of waiting for the Open button. */
  autoConnect?: boolean;
  /** Fill the parent's height (the full-page terminal) instead of the panel's fixed box. */
  fill?: boolean;
  /** Shown beside the Open button (the panel's Full screen link). */
  extra?: ReactNode;
}

export default function WebTerminal({
  projectResourceId,
  autoConnect = false,
  fill = false,
  extra,
}: WebTerminalProps): ReactNode {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const token = useWebTerminalTokenMutation();
  const [ticket, setTicket] = useState<WebTerminalTokenReply | null>(null);
  const [status, setStatus] = useState<Status | null>(null);
  const queryClient = useQueryClient();
  // The session is online from ready to its end: the header's count and the online lists say
  // so now, not at their next refresh.
  const onStatus = useCallback(
    (next: Status) => {
      setStatus(next);
      void queryClient.invalidateQueries({ queryKey: onlineKeys.all });
    },
    [queryClient],
  );
  const { mutate } = token;
  const connect = useCallback(() => {
    setStatus(null);
    mutate(projectResourceId, { onSuccess: setTicket });
  }, [mutate, projectResourceId]);
  // One automatic attempt per mount (StrictMode's second effect run must not spend a token).
  const autoDone = useRef(false);
  useEffect(() => {
    if (!autoConnect || autoDone.current) return;
    autoDone.current = true;
    connect();
  }, [autoConnect, connect]);
  const ended = status?.kind === 'closed';
  const endText = ended && status.closed ? closedText(status.closed, t) : null;
  return (
    <Space
      direction="vertical"
      className={
        fill ? 'pc-web-terminal__wrap pc-web-terminal__wrap--fill' : 'pc-web-terminal__wrap'
      }
    >
      {!ticket || ended || extra ? (
        <Space wrap>
          {!ticket || ended ? (
            <Button type="primary" loading={token.isPending} onClick={connect}>
              {t(
                ticket ? 'workgroup.connect.terminal.reconnect' : 'workgroup.connect.terminal.open',
              )}
            </Button>
          ) : null}
          {extra}
        </Space>
      ) : null}
      {token.error ? <Alert type="error" showIcon message={errorText(token.error)} /> : null}
      {ended ? (
        <Alert
          type="warning"
          showIcon
          message={endText ? endText.title : t('workgroup.connect.terminal.lost')}
          description={endText?.detail}
        />
      ) : null}
      {ticket ? (
        <Session key={ticket.token} ticket={ticket} fill={fill} onStatus={onStatus} />
      ) : null}
    </Space>
  );
}
