/** Seconds as HH:MM:SS (hours may pass 99), or 00:00:00 when not positive (spec 1 §3). */
export function formatDuration(seconds: number): string {
  if (!(seconds > 0)) return '00:00:00';
  const s = Math.floor(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}
