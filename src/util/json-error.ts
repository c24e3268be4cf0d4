// Where in a JSON text its parse failed, as a person finds it: a line and a column.
/**
 * ` at line L, column C (what V8 says)`: a 28 MB file's error "at position 12972489" says
 * nothing a person can find. V8 names a position for most errors; for an unexpected token it
 * shows the text around it instead, and the position is found by parsing the text up to a point:
 * the token is within it when that text fails on the same kind of error, not on its end.
 */
export function jsonErrorPlace(text: string, message: string): string {
  const said = message.replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '').replace(/ (in|after) JSON at position \d+(?: \(line \d+ column \d+\))?$/, (_, word: string) => (word === 'after' ? ' after JSON' : ''));
  let at = Number(/at position (\d+)/.exec(message)?.[1] ?? NaN);
  if (Number.isNaN(at) && message.startsWith('Unexpected token')) {
    const failsWithin = (end: number) => {
      try {
        JSON.parse(text.slice(0, end));
        return false;
      } catch (e) {
        return (e as Error).message.startsWith('Unexpected token');
      }
    };
    let low = 0;
    let high = text.length;
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      if (failsWithin(mid)) high = mid;
      else low = mid + 1;
    }
    at = low - 1;
  }
  if (Number.isNaN(at) || at < 0) return ` (${said})`;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++;
  const column = at - text.lastIndexOf('\n', at - 1);
  return ` at line ${line}, column ${column} (${said})`;
}
