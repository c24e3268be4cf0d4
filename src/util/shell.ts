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
  // Its UTF-8 bytes, each as \xHH: bash reads \u escapes only in a UTF-8 locale (and bash 3.2,
  // macOS's, never), zsh refuses them in the C locale; bytes read back the same in every one.
  return [...Buffer.from(ch, 'utf8')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
}
