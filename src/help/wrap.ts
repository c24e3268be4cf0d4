/** Text in lines of at most `width` characters (words are never split), each line indented. */
export function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join('\n');
}

/**
 * Text as written (a help topic, its tables of commands) fitted to `width` columns. A row of a
 * table (text after a gap of two spaces or more, leaving it 20 columns), with the lines that go
 * on under its description column, that does not fit is filled again under that column. A
 * paragraph (lines of one indent, no table rows) with a line that does not fit is filled again
 * under its indent. A word longer than a line (a URL) is left whole; what fits is as written.
 * A command to copy (`$ mkdir -p …`) is a line of its own, never filled: cut, it would not run.
 */
export function fitLines(text: string, width: number): string {
  const lines = text.split('\n');
  const out: string[] = [];
  const indentOf = (line: string) => /^ */.exec(line)![0].length;
  const rowColumn = (line: string) => {
    const gap = /^( *\S(?:.*?\S)? {2,})\S/.exec(line);
    return gap && gap[1]!.length <= width - 20 ? gap[1]!.length : undefined;
  };
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!;
    if (line.trim() === '') {
      out.push(line);
      i++;
      continue;
    }
    if (isCommand(line)) {
      out.push(line);
      i++;
      continue;
    }
    const column = rowColumn(line);
    if (column !== undefined) {
      // The row's own lines: those that go on under its description column.
      let j = i + 1;
      while (j < lines.length && lines[j]!.trim() !== '' && rowColumn(lines[j]!) === undefined && indentOf(lines[j]!) === column) j++;
      const row = lines.slice(i, j);
      // As written up to its first line that does not fit (a line break there may be meant: a
      // command to copy, then prose), filled again from there.
      const over = row.findIndex((l) => l.length > width);
      if (over < 0) out.push(...row);
      else {
        out.push(...row.slice(0, over));
        const start = over === 0 ? line.trimEnd() : ' '.repeat(column) + row[over]!.trim();
        out.push(hanging([start, ...row.slice(over + 1).map((l) => l.trim())].join(' '), width, column));
      }
      i = j;
      continue;
    }
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() !== '' && rowColumn(lines[j]!) === undefined && !isCommand(lines[j]!) && indentOf(lines[j]!) === indentOf(line)) j++;
    const paragraph = lines.slice(i, j);
    if (paragraph.every((l) => l.length <= width)) out.push(...paragraph);
    else out.push(hanging(' '.repeat(indentOf(line)) + paragraph.map((l) => l.trim()).join(' '), width, indentOf(line)));
    i = j;
  }
  return out.join('\n');
}

const isCommand = (line: string) => line.trimStart().startsWith('$ ');

/** One line in lines of `width`, the first as it starts, the others indented by `hang`. */
function hanging(line: string, width: number, hang: number): string {
  const lead = /^ */.exec(line)![0].length;
  const out: string[] = [];
  let rest = line;
  let indent = '';
  while (indent.length + rest.length > width) {
    const room = width - indent.length;
    let cut = rest.lastIndexOf(' ', room);
    // Never cut inside the indent or the row's first column.
    if (cut <= (out.length === 0 ? Math.max(lead, hang - 2) : 0)) cut = rest.indexOf(' ', room);
    if (cut < 0) break;
    out.push(indent + rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut + 1).trimStart();
    indent = ' '.repeat(hang);
  }
  out.push(indent + rest);
  return out.join('\n');
}
