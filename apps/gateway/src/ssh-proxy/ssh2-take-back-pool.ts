// Imported by ssh2.ts just after ssh2 itself: see there.
import { takeBackPool } from './ssh2-padding';

takeBackPool();
