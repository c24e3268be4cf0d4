// The CSV export floor's cells, shared by export-csv.mjs and network-client.mjs: the columns sct
// chooses (every dotted field of the first page's rows) and its escaping, hand-written.

export function flatten(obj, prefix, out) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0) flatten(v, key, out);
    else out.push(key);
  }
  return out;
}

// A field null in one row and an object in another is only the object's dotted columns.
export function mergeKeys(keys) {
  const isParent = (k) => keys.some((o) => o.startsWith(k + '.'));
  const out = [];
  const placed = new Set();
  for (const k of keys) {
    if (placed.has(k)) continue;
    placed.add(k);
    if (!isParent(k)) out.push(k);
    else
      for (const d of keys)
        if (d.startsWith(k + '.') && !placed.has(d) && !isParent(d)) {
          out.push(d);
          placed.add(d);
        }
  }
  return out;
}

const QUOTE = /[",\n\r]|^\s|\s$/;
const FORMULA = /^'*[=+\-@\t\r]/;
export const text = (s) => {
  if (FORMULA.test(s)) s = "'" + s;
  return QUOTE.test(s) ? '"' + s.replaceAll('"', '""') + '"' : s;
};
export function cell(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return text(v);
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? '1' : '';
  return text(JSON.stringify(v));
}
export function read(row, parts) {
  let v = row;
  for (const p of parts) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, p)) return undefined;
    v = v[p];
  }
  return v;
}

/** The header line and the rows of one parsed page, once `state.columns` is set from the first. */
export function csvPage(page, state) {
  let out = '';
  if (!state.columns) {
    const keys = new Set();
    for (const row of page.results) for (const k of flatten(row, '', [])) keys.add(k);
    state.columns = mergeKeys([...keys]).map((k) => k.split('.'));
    out += state.columns.map((c) => text(c.join('.'))).join(',') + '\n';
  }
  for (const row of page.results) out += state.columns.map((c) => cell(read(row, c))).join(',') + '\n';
  return out;
}
