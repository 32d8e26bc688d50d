// How `npm start` shows the services' JSON log lines in an interactive terminal: one readable,
// coloured line each (time, level, service, message, then the other fields). Services always log
// JSON; this only changes what a person at a terminal sees. Not JSON: shown as it came.

const LEVELS = { 10: ['TRACE', 90], 20: ['DEBUG', 90], 30: ['INFO', 32], 40: ['WARN', 33], 50: ['ERROR', 31], 60: ['FATAL', 35] };
const SERVICE_COLOURS = [36, 35, 34, 33];
const TAG_WIDTH = '[identity-provider]'.length;
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'service', 'msg', 'req_id']);

const paint = (colour, text, on) => (on ? `\u001b[${colour}m${text}\u001b[0m` : text);
const value = (v) => (typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v));

/**
 * `service` is the launcher's name for the process; `index` picks its colour; `repeat: false` (the
 * same service spoke the line before) leaves the name's place blank, so the name marks where a
 * service starts speaking instead of filling every line.
 */
export function formatLogLine(service, line, { colour = true, index = 0, repeat = true } = {}) {
  // One column wide enough for the longest name, so messages line up whoever speaks.
  const width = Math.max(TAG_WIDTH, service.length + 2);
  const tag = repeat ? paint(SERVICE_COLOURS[index % SERVICE_COLOURS.length], `[${service}]`.padEnd(width), colour) : ' '.repeat(width);
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return `${tag} ${line}`;
  }
  if (entry === null || typeof entry !== 'object' || typeof entry.msg !== 'string') return `${tag} ${line}`;
  const [name, levelColour] = LEVELS[entry.level] ?? [String(entry.level ?? ''), 0];
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 19) : '';
  const { method, route, status, duration_ms: ms, ...rest } = entry;
  // A completed request reads as one, by its route template: GET /v2/presets/:preset_name 200 3.1 ms.
  const request = entry.msg === 'request completed' && method ? `${method} ${route} ${status} ${ms} ms` : undefined;
  const fields = Object.entries(request ? rest : entry)
    .filter(([k]) => !HIDDEN.has(k))
    .map(([k, v]) => `${paint(90, `${k}=`, colour)}${value(v)}`);
  return [paint(90, time, colour), paint(levelColour, name.padEnd(5), colour), tag, request ?? entry.msg, ...fields].filter(Boolean).join(' ');
}
