/**
 * A bridge from code outside React (the query cache) to Ant Design's contextual message API,
 * which only components inside <App> can reach. <FeedbackBridge> registers it.
 */
import type { MessageInstance } from 'antd/es/message/interface';

let messageApi: MessageInstance | null = null;

export function setMessageApi(api: MessageInstance | null): void {
  messageApi = api;
}

export function notifyError(text: string): void {
  void messageApi?.error(text);
}
