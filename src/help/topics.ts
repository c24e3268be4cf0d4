// Help topics (`sct help TOPIC`) and longer help texts, as data in one place: the help command
// prints them, and docs/ is generated from them (npm run docs; test/e2e/manual.test.ts).
import { LIST_FILTERS } from '../api/filters/index.js';
import { flagsOf, keysSentBy } from '../api/filters/keys.js';
import { wrap } from './wrap.js';
import { environmentText } from './environment.js';
import { exitCodesText } from './exit-codes.js';

export interface Topic {
  summary: string;
  text: () => string;
}

export const API_HELP = `
Fields (gh api's rules):
  -f key=value             a string, always: -f name=1984 sends "1984"
  -F key=value             typed: numbers, true, false and null as JSON; @file sends the file's content,
                           @- stdin (a number keeps its digits as typed, past 2^53 too)
  key.sub=v, key[]=v       nests; appends to an array. Fields make the default method POST; with GET (or
                           DELETE, or beside --input) they go in the query string.
  -H 'Name: value'         adds a header; Authorization, Proxy-Authorization, Host, Cookie and
                           Content-Length are sct's own (exit 2): the token is always the profile's or
                           SCT_TOKEN's, sent only to the base URL. A header given twice with two values
                           is exit 2 (a request carries one); errors never repeat a header's value.
  -H 'Idempotency-Key: K'  on a POST, sent unchanged (else a new key per run): a rerun with the same K
                           finds the first request's outcome instead of creating again; an empty K
                           (an unset $KEY) is exit 2.
  --input FILE             sends the file's bytes as they are (JSON, checked, unless -H names another
                           Content-Type).
  -i                       prints "HTTP/1.1 200 OK" and the response headers, a blank line, then the
                           body; a failure's too (a 401, a redirect not followed, an answer that is
                           not JSON), and the run still ends with the failure's exit code.
  --paginate               follows next links and prints one array (an answer that is no list as
                           without --paginate); -o csv/ndjson/table print list answers (an array,
                           or a page's results) as rows, and --columns picks each row's fields;
                           --jq filters the whole answer (exit 1 when it is not JSON).`;

export const API_EXAMPLES = [
  'sct api /accounts/me',
  "sct api /orders -X GET -f order_action=buying -f limit=5 --jq '.results[].external_id'",
  'sct api -X PATCH /origins/12 -f name="North plot"',
  'sct api /origins -F name=@name.txt -F country_code=GH',
  'sct api /origins --paginate -o ndjson',
  "sct api -i /accounts/me -H 'Accept-Language: fr'",
];

const FORMATTING = `Output formats (-o, --output):

  table    default: columns for people; --columns picks others (dotted paths: seller_company.name)
  json     a list is one JSON array (streamed page by page, still one array), one resource an object
  ndjson   one JSON object per line
  csv      a header row, then one row per object: the resource's documented fields, the same
           columns whatever the data; documented objects become dotted columns; true and false
           as such, null as an empty cell
  geojson  origins list and get only: a FeatureCollection (or one Feature), each origin's location
           its geometry; --eudr writes the EU registry's properties (sct help reference, origins)

--columns a,b.c
  picks fields in every format: table and csv columns; in json/ndjson each object keeps only those
  keys, nested as in the API object (--columns id,seller_company.name gives
  {"id": 1, "seller_company": {"name": "…"}}). A field the resource does not have, by the API
  documents, is exit 2 listing the valid names, before anything is sent (resources whose fields
  the documents do not show — documents, imports, risk assessments, sct api — take any name).

--json [FIELDS]
  --json is -o json; --json FIELDS is -o json --columns FIELDS
  (sct orders list --buying --json id,external_id). The word after --json is a field list only
  when it reads as one (names of letters, digits and _, dotted, comma-separated, not starting with
  a digit) and the command is not still waiting for a positional argument: sct orders get --json 5
  gets order 5 as JSON; sct orders get 5 --json id,type picks fields.

--jq EXPR
  filters the JSON output with jq (jq itself, built in: no jq program needed), once over the whole
  document — a list's single array, across every page of --all — and prints each result on its own
  line, strings raw as jq -r does. Implies JSON output (another -o is exit 2). An expression that
  does not compile is exit 2 before any request. The list is held in memory for jq, up to 100 MB
  of JSON (exit 1 beyond: give -o ndjson to a jq program instead).
    sct orders list --buying --all --jq 'map(select(.assessment_status == "failing")) | length'

Tables: on a terminal they fit its width; not at a terminal a table is plain columns, no colour.
CSV guard: a text cell that begins with =, +, -, @, a tab or a carriage return is written with a
leading ' so no formula runs in a spreadsheet; sct's own CSV readers take it off again;
--csv-formulas writes cells exactly as the service sent them.
Strings from the API lose control characters and escape sequences on a terminal.
`;

const CONFIG = `Configuration:

  config.json in $SCT_CONFIG_DIR, else $XDG_CONFIG_HOME/sct (~/.config/sct; on macOS
  ~/Library/Preferences/sct, on Windows %APPDATA%\\sct), mode 0600.
  A profile holds base_url, token, workspace and output; --profile NAME or SCT_PROFILE picks one
  (default "default"). Without a config file, SCT_BASE_URL and SCT_TOKEN are enough.

  sct config profiles            the profiles: the current one marked *, base URL, where the token is kept
  sct config list | path         the current profile's settings; the file's path
  sct config get KEY             one setting (a known key that is not set prints nothing, exit 0)
  sct config set KEY VALUE       KEY: base_url (or base-url), output, workspace; creates the profile
  sct config unset KEY
  sct auth login [--base-url URL] [--with-token]   stores the token (system keyring, else the 0600 config file)

Precedence: --base-url > SCT_BASE_URL > profile; SCT_TOKEN > profile; -o/--json/--jq > profile's
output > table. A profile's token belongs to the base URL it was stored with (config set base_url
does not move it): another origin gets no stored token, only SCT_TOKEN. A --profile or SCT_PROFILE that names no profile is exit 2 listing the profiles,
except for auth login and config set.

Run \`sct config --help\` for the config commands' options.
`;

/**
 * Keys the documents list that --filter refuses: the paging flags' (`--filter limit=5` says to use
 * --limit), and the orders' side, which --buying or --selling always sets.
 */
const NOT_FILTERS = new Set(['limit', 'offset']);
const SET_BY_FLAGS: Record<string, string[]> = { orders: ['order_action'] };

function filtersText(): string {
  let out = `Documented filters of each list (--filter KEY=VALUE sends any key; one not listed here gets a
warning naming the closest documented key, and is still sent). Lists not named here (products,
value chains, countries, documents, imports, risk) have no documented filters: any key goes.
limit and offset are the paging flags' (--limit, --offset, --page-size); the orders' side
(order_action) is --buying or --selling.
Suffixes: __in (comma list), __icontains, __startswith, __endswith, __isnull, __gte, __lte.
A key is given once: the service reads only the last value of one given twice, so sct refuses it
(several values go as one __in list, e.g. --filter type__in=order,produced_batch), except where a
list below says a key repeats. A --filter key that a flag given sets too is refused unless its
value is the flag's.
`;
  for (const { noun, command, keys: documented, named, repeatable } of LIST_FILTERS) {
    const keys = documented.filter((k) => !NOT_FILTERS.has(k) && !(SET_BY_FLAGS[noun] ?? []).includes(k));
    out += `\nsct ${command ?? `${noun} list`}:\n`;
    if (named.length) {
      const flags = named.map((f) => flagsOf(f).join(', '));
      const width = Math.max(...flags.map((f) => f.length)) + 2;
      // A long list of keys goes on under its own start, not under the flags.
      const sent = named.map((f) => wrap(keysSentBy(f).join(', '), 96, ' '.repeat(4 + width)).trimStart());
      out += `  Flags, and the keys they send:\n${named.map((_, i) => `    ${flags[i].padEnd(width)}${sent[i]}\n`).join('')}  Keys:\n`;
    }
    out += `${wrap(keys.join(', '), 96, named.length ? '    ' : '  ')}\n`;
    if (repeatable?.length) out += `  Repeatable (any of the values matches): ${repeatable.join(', ')}\n`;
  }
  return out;
}

export const TOPICS: Record<string, Topic> = {
  environment: { summary: 'environment variables sct reads', text: environmentText },
  'exit-codes': { summary: 'what each exit code means', text: exitCodesText },
  formatting: { summary: 'output formats, --columns, --json, --jq, tables, the CSV guard', text: () => FORMATTING },
  filters: { summary: "every list's documented --filter keys", text: filtersText },
  config: { summary: 'profiles, the config file and precedence', text: () => CONFIG },
};
