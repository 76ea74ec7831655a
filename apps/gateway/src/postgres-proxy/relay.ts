/**
 * A PostgreSQL session once both logins are done: the client's messages go through the
 * conversation (rules, statement log) to the target, the target's bytes stream back through
 * the server-stream reader. Backpressure both ways: a side that cannot take more pauses the
 * other. A cut from the console ends the session with a FATAL error the client shows
 * (57P01, as PostgreSQL's own administrator shutdown), or at once mid-message.
 */
import type net from 'node:net';
import type { Logger } from '../core/logger';
import { sessionEndedText } from '../core/session-ended';
import type { DbSession, StatementEntry } from '../db-proxy/session';
import { Conversation } from './conversation';
import { CLIENT_MESSAGE_MAX, errorResponse, MessageReader, ProtocolError } from './messages';
import { ServerStream } from './server-stream';

const TERMINATE = 'X'.charCodeAt(0);

export interface RelayOptions {
  client: net.Socket;
  /** Client bytes read during start-up and not yet handled. */
  clientBuffered: Buffer;
  target: net.Socket;
  targetBuffered: Buffer;
  session: DbSession;
  database: string;
  /** The client encoding the target reported at login. */
  clientEncoding: string;
  logger: Logger;
  /**
   * Called when the client said goodbye (Terminate) with nothing in flight and no transaction
   * open: the target connection, free of the relay's listeners, is the caller's to keep
   * (backend-pool.ts) or close.
   */
  onCleanEnd?(): void;
  onEnd(): void;
}

/** Adds a piece to write, joined to the last when it follows it in the same memory. */
function addPiece(pieces: Buffer[], piece: Buffer): void {
  const last = pieces[pieces.length - 1];
  if (last && last.buffer === piece.buffer && last.byteOffset + last.length === piece.byteOffset) {
    pieces[pieces.length - 1] = Buffer.from(
      last.buffer,
      last.byteOffset,
      last.length + piece.length,
    );
  } else {
    pieces.push(piece);
  }
}

/** Writes the pieces, corked when there are several; false when the socket wants a pause. */
function writePieces(socket: net.Socket, pieces: Buffer[]): boolean {
  if (pieces.length === 1) return socket.write(pieces[0] as Buffer);
  let ok = true;
  socket.cork();
  for (const piece of pieces) ok = socket.write(piece) && ok;
  socket.uncork();
  return ok;
}

export function relaySession(options: RelayOptions): void {
  const { client, target, session, logger } = options;
  /**
   * Statement log entries finished by the reply chunk being read: logged once that chunk is
   * written, so a client waiting on each reply waits no longer than it must.
   */
  const finished: StatementEntry[] = [];
  const conversation = new Conversation(
    options.database,
    session.policy,
    {
      log: (entry) => void finished.push(entry),
      alarm: (action, statement, rule) => session.alarm(action, statement, rule),
    },
    options.clientEncoding,
  );
  const fromTarget = new ServerStream({
    onPassed: (type) => conversation.onPassed(type),
    onHeld: (type, buf, start, end) => conversation.onHeld(type, buf, start, end),
  });
  const logFinished = (): void => {
    // Most calls find nothing finished (a client message, a chunk mid-result): no write then.
    if (finished.length === 0) return;
    for (const entry of finished) session.logStatement(entry);
    finished.length = 0;
  };
  const reader = new MessageReader(CLIENT_MESSAGE_MAX);
  let ended = false;

  /**
   * `graceful`: what was written to the client still reaches it (a FATAL error, last words).
   * `keepTarget`: the target connection was handed on (onCleanEnd), not closed.
   */
  const end = (why: string, graceful = false, keepTarget = false): void => {
    if (ended) return;
    ended = true;
    logger.debug({ connection_id: session.connectionId, why }, 'postgresql session ending');
    if (graceful) {
      // Its last words go out; a client that does not close its side is let go shortly after.
      client.end();
      setTimeout(() => client.destroy(), 200).unref();
    } else client.destroy();
    if (keepTarget) {
      target.off('data', onTargetData);
      target.off('close', onTargetClose);
      target.off('error', onTargetError);
      target.off('drain', onTargetDrain);
    } else target.destroy();
    conversation.close();
    logFinished();
    options.onEnd();
    void session.end();
  };

  /** A large text is being judged off the event loop: the client's messages wait. */
  let judging = false;
  const onClientData = (chunk: Buffer): void => {
    if (ended) return;
    reader.push(chunk);
    if (!judging) takeClientMessages();
  };
  const takeClientMessages = (): void => {
    const outs: Buffer[] = [];
    let failure: { err: unknown } | undefined;
    try {
      for (let m = reader.next(); m; m = reader.next()) {
        if (m.type === TERMINATE && cleanEnd(outs)) return;
        const out = conversation.fromClient(m.type, m.body, m.raw);
        if (out instanceof Promise) {
          // What came before goes now (below); this message and those after it wait.
          judging = true;
          client.pause();
          void out.then(
            (piece) => {
              judging = false;
              if (ended) return;
              if (writePieces(target, [piece])) client.resume();
              takeClientMessages();
            },
            (err: unknown) => {
              judging = false;
              badMessage(err);
            },
          );
          break;
        }
        addPiece(outs, out);
      }
    } catch (err) {
      failure = { err };
    }
    // One write for all of a chunk's messages (the chunk itself when they go unchanged): a
    // pipelined Parse/Bind/Execute/Sync is one packet in, one packet out. Those before a bad
    // message were judged and are pending: they go out before the target is closed, as the
    // conversation will log them.
    if (!writePieces(target, outs)) client.pause();
    logFinished();
    if (failure) badMessage(failure.err);
  };
  /** The client sent what the conversation cannot take: the session ends, saying why. */
  const badMessage = (err: unknown): void => {
    const reason = err instanceof ProtocolError ? err.message : 'an unreadable message';
    logger.info(
      { connection_id: session.connectionId, reason },
      'postgresql client sent a bad message',
    );
    if (fromTarget.atBoundary) {
      client.write(
        errorResponse({ severity: 'FATAL', code: '08P01', message: `Portcullis: ${reason}` }),
      );
    }
    end('protocol', true);
  };
  /**
   * The client's Terminate: when nothing is in flight, the target is offered to onCleanEnd
   * (the Terminate itself is not passed on). True when the session ended so.
   */
  const cleanEnd = (outs: Buffer[]): boolean => {
    if (
      !options.onCleanEnd ||
      outs.length > 0 ||
      reader.buffered > 0 ||
      !conversation.idle ||
      !fromTarget.atBoundary ||
      target.destroyed ||
      target.writableLength > 0
    ) {
      return false;
    }
    // The session ends first, so that the target is free of its listeners when handed on.
    end('client terminated', false, true);
    options.onCleanEnd();
    return true;
  };
  const onTargetData = (chunk: Buffer): void => {
    let pieces: Buffer[];
    try {
      pieces = fromTarget.feed(chunk);
    } catch {
      return end('target protocol');
    }
    // Usually one piece, the chunk itself.
    if (!writePieces(client, pieces)) target.pause();
    logFinished();
  };

  // The target's last words (a FATAL error) have been passed on; then the client goes.
  const onTargetClose = (): void => end('target closed', true);
  const onTargetError = (): void => end('target error');
  const onTargetDrain = (): void => void client.resume();
  client.on('drain', () => target.resume());
  target.on('drain', onTargetDrain);
  client.on('data', onClientData);
  target.on('data', onTargetData);
  client.on('close', () => end('client closed'));
  target.on('close', onTargetClose);
  client.on('error', () => end('client error'));
  target.on('error', onTargetError);
  session.onCut((reason) => {
    if (fromTarget.atBoundary && client.writable) {
      client.write(
        errorResponse({
          severity: 'FATAL',
          code: '57P01',
          message: sessionEndedText(reason),
        }),
      );
      end('cut', true);
    } else end('cut');
  });
  if (options.targetBuffered.length > 0) onTargetData(options.targetBuffered);
  if (options.clientBuffered.length > 0) onClientData(options.clientBuffered);
  client.resume();
  // A connection from the pool waits paused (backend-pool.ts).
  target.resume();
}
