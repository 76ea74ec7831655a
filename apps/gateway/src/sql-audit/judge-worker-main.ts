/**
 * The judge worker's entry where the gateway registered none (off-thread.ts): the gateway run
 * inside a test's process.
 */
import { runJudgeWorker } from './off-thread';

runJudgeWorker();
