/** Types for sshd.mjs (the sshd test peer). */
export declare const DEFAULT_TEST_USER: string;

export interface TestUser {
  user: string;
  password: string;
}

export interface SshdPeer extends TestUser {
  host: string;
  port: number;
  /** The test key (OpenSSH ed25519) whose public half is in this sshd's authorized_keys. */
  privateKey: string;
  publicKey: string;
  logFile: string;
  stop(): Promise<void>;
}

export declare function ensureTestUser(user?: string): Promise<TestUser>;

export declare function startSshd(opts?: {
  user?: string;
  options?: string[];
  /** Also read the user's own ~/.ssh/authorized_keys (what a key upload writes). */
  homeAuthorizedKeys?: boolean;
}): Promise<SshdPeer>;
