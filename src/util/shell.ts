// Commands sct prints for the user to copy (a rerun, a login): each word as a shell reads it back.

/** What POSIX quoting cannot show: control characters, line and paragraph separators, bidi controls. */
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * A word as a POSIX shell reads it back: as it is when plainly safe, else in single quotes. One
 * holding a character no line may show (a line break, an escape) is written in bash's and zsh's
 * $'…' with that character as an escape: the line stays clean, and pastes back as the same word.
 */
export function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  if (!UNSHOWABLE.test(word)) return `'${word.replaceAll("'", `'\\''`)}'`;
  return `$'${[...word].map(escaped).join('')}'`;
}

function escaped(ch: string): string {
  if (ch === '\\' || ch === "'") return `\\${ch}`;
  if (ch === '\n') return '\\n';
  if (ch === '\t') return '\\t';
  if (ch === '\r') return '\\r';
  if (!UNSHOWABLE.test(ch)) return ch;
  const code = ch.codePointAt(0)!;
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
