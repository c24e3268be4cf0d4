// What a terminal shows once it has drawn everything a program wrote: the raw bytes of a
// pseudo-terminal replayed on a grid. A prompt that redraws itself or erases its menu leaves
// text in the raw bytes that is no longer on the screen, so assertions about what the person
// sees need the grid, not the bytes. Only the sequences prompts, spinners and tables use are
// understood: cursor up/down/to column/to position, erase line, erase to end of line; others
// (colours, cursor show/hide) change nothing on the grid.
export function screenLines(raw: string): string[] {
  const lines: string[][] = [[]];
  let row = 0;
  let col = 0;
  const line = () => (lines[row] ??= []);
  const ensureRows = () => {
    while (lines.length <= row) lines.push([]);
  };
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === '\u001b') {
      const csi = /^\u001b\[([?0-9;]*)([A-Za-z])/.exec(raw.slice(i, i + 16));
      if (!csi) continue;
      i += csi[0].length - 1;
      const [, params, command] = csi;
      const n = params.startsWith('?') ? 0 : Number(params.split(';')[0] || '1');
      if (command === 'A') row = Math.max(0, row - n);
      else if (command === 'B') row += n;
      else if (command === 'G') col = n - 1;
      else if (command === 'H') {
        const [r = '1', c = '1'] = params.split(';');
        row = Number(r) - 1;
        col = Number(c) - 1;
      } else if (command === 'K') {
        ensureRows();
        if (params === '2') lines[row] = [];
        else if (params === '1') lines[row] = line().map((c, j) => (j <= col ? ' ' : c));
        else lines[row] = line().slice(0, col);
      }
      ensureRows();
      continue;
    }
    if (ch === '\r') col = 0;
    else if (ch === '\n') {
      row++;
      ensureRows();
    } else {
      ensureRows();
      const l = line();
      while (l.length < col) l.push(' ');
      l[col++] = ch;
    }
  }
  const text = lines.map((l) => l.join('').trimEnd());
  while (text.length > 0 && text[text.length - 1] === '') text.pop();
  return text;
}
