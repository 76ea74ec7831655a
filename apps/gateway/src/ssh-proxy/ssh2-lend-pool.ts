// Imported by ssh2.ts just before ssh2 itself: see there.
import { lendPool } from './ssh2-padding';

lendPool();
