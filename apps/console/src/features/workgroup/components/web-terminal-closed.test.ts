import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { closedText } from './web-terminal-closed';

const en = i18next.getFixedT('en_US');
const zh = i18next.getFixedT('zh_CN');

describe('why a web terminal session ended', () => {
  it('says a console cut once, in English and in Chinese', () => {
    const cut = {
      type: 'closed' as const,
      code: 'SessionCut',
      reason: 'SessionCutFromConsole',
      message: 'The session was ended by the server: Disconnected from the console',
    };
    // Before: "会话已结束：The session was ended by the server: Disconnected from the console（SessionCut）".
    expect(closedText(cut, en)).toEqual({
      title: 'The session was ended by the server',
      detail: 'Disconnected from the console',
    });
    expect(closedText(cut, zh)).toEqual({
      title: '会话已被服务器结束',
      detail: '已从控制台断开连接',
    });
    const expired = { ...cut, reason: 'TunnelExpire', message: 'x: The code has expired' };
    expect(closedText(expired, zh)).toEqual({
      title: '会话已被服务器结束',
      detail: '连接码已过期',
    });
  });

  it('says a session that ended on its own without repeating itself', () => {
    // Before: "The session ended: The session ended (SessionEnded)".
    const ended = { type: 'closed' as const, code: 'SessionEnded', message: 'The session ended' };
    expect(closedText(ended, en)).toEqual({ title: 'The session ended', detail: undefined });
    expect(closedText(ended, zh)).toEqual({ title: '会话已结束', detail: undefined });
  });

  it('keeps what the gateway adds to a code, and its text for a code it does not know', () => {
    const refused = {
      type: 'closed' as const,
      code: 'InvalidResource',
      message: 'The resource refused: All configured authentication methods failed',
    };
    expect(closedText(refused, zh)).toEqual({
      title: '资源无效',
      detail: 'The resource refused: All configured authentication methods failed',
    });
    const older = {
      type: 'closed' as const,
      code: 'SessionCut',
      message: 'The session was ended by the server: audit',
    };
    expect(closedText(older, en)).toEqual({
      title: 'The session was ended by the server',
      detail: 'audit',
    });
    const unknown = { type: 'closed' as const, code: 'SomethingNew', message: 'Something new' };
    expect(closedText(unknown, zh)).toEqual({ title: 'Something new', detail: undefined });
  });
});
