# Names cannot restyle what a person reads (docs/reliability.md):
#  - the bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E,
#    U+2066-U+2069) are escaped as \uNNNN wherever control characters are,
#    so `list plans` cannot show a name reversed;
#  - Markdown output is literal text whatever a name holds: rendered by
#    cmark-gfm (GitHub's own CommonMark renderer, with its table,
#    autolink, strikethrough and tagfilter extensions, and raw HTML let
#    through so that any tag that got out would show), every cell reads
#    back as its value, and no element but the table's (and the <br> of a
#    line break) appears.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

bd init >/dev/null

# --- Bidirectional controls. The attack: a plan "abc<U+202E>fdp.exe"
# shows as "abcexe.pdf" on a terminal.
rlo=$(printf '\342\200\256')
bd sql --write "INSERT INTO plan(name) VALUES ('abc${rlo}fdp.exe')" >/dev/null || fail "a plan"
run bd list plans
expect_rc 0 "list plans"
expect_out_has 'abc\u202efdp.exe' "list plans escapes U+202E"
grep -q "$rlo" "$T/out" && fail "no raw U+202E reaches the terminal"
run bd list plans --format markdown
expect_out_has '| abc\u202efdp.exe |' "so does Markdown"
# Every other one, in a value, a column's name and a message.
all=$(printf '\330\234 \342\200\216 \342\200\217 \342\200\252 \342\200\253 \342\200\254 \342\200\255 \342\200\256 \342\201\246 \342\201\247 \342\201\250 \342\201\251')
want='\u061c \u200e \u200f \u202a \u202b \u202c \u202d \u202e \u2066 \u2067 \u2068 \u2069'
run bd sql "SELECT '$all' AS \"c$rlo\"" --format vertical
expect_out "c\\u202e = $want" "each bidirectional control, in a value and a name"
run bd query comparisons -p plan="x$(printf '\342\201\247')y"
expect_rc 2 "an unknown plan"
expect_err_has "plan 'x\\u2067y'" "a name in a message"
# CSV and JSON keep the bytes exact, as they keep other control characters.
run bd sql "SELECT '$all' AS v" --format csv
expect_eq "$(tail -n 1 "$T/out" | tr -d '\r')" "$all" "CSV keeps them"
grep -q "$rlo" "$T/out" || fail "CSV holds the raw character"
checks=$((checks + 3))

# --- Markdown: each attack in a cell, and variants.
command -v cmark-gfm >/dev/null || fail "cmark-gfm is missing (scripts/install-deps installs it)"
cat >names.txt <<'EOF'
<script>alert(1)</script>
<img src=x onerror=alert(1)>
[l](javascript:alert(1))
![i](https://example.com/x.png)
**bold** *it* __b__ _i_
@mention and @org/team
x\|y
a|b
`code` and ``two``
~~struck~~ ~one~
www.example.com and https://example.com/x and a@b.example
&amp; &lt;b&gt; &#64;
$x^2$ \$ \\
#123 and org/repo#4
[ ] task [x]
[^1] footnote
<!-- comment -->
<https://example.com>
BM_Sort_x/threads:8
trailing backslash \
EOF
# Each name a row of one column, read by SQL from the file's lines; also
# as a column's name (the header).
python3 - names.txt >names.sql <<'PY'
import sys
rows = [l.rstrip('\n') for l in open(sys.argv[1], encoding='utf-8')]
q = lambda s: "'" + s.replace("'", "''") + "'"
print(" UNION ALL ".join(f"SELECT {i} AS i, {q(s)} AS v" for i, s in enumerate(rows)) + " ORDER BY i")
PY
run bd sql --file names.sql --format markdown
expect_rc 0 "the names as Markdown"
cp "$T/out" table.md
cmark-gfm --unsafe -e table -e autolink -e strikethrough -e tagfilter table.md >table.html || fail "cmark-gfm"
# A leading line break: a value "a<LF>b" as a <br>.
run bd sql "SELECT '*a*' || char(10) || '<b>' AS \"**h** <i>\"" --format markdown
cmark-gfm --unsafe -e table -e autolink -e strikethrough -e tagfilter "$T/out" >br.html || fail "cmark-gfm"
python3 - names.txt table.html br.html <<'PY' || fail "Markdown renders as the literal text"
import html.parser, sys
want = [l.rstrip('\n') for l in open(sys.argv[1], encoding='utf-8')]
ZWSP = '\u200b'
class Cells(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cells, self.cur, self.tags = [], None, set()
    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag in ('td', 'th'):
            self.cur = ''
        elif tag == 'br' and self.cur is not None:
            self.cur += '\n'
    def handle_endtag(self, tag):
        if tag in ('td', 'th'):
            self.cells.append(self.cur)
            self.cur = None
    def handle_data(self, d):
        if self.cur is not None:
            self.cur += d
    def handle_comment(self, d):
        self.tags.add('<!--')
def cells(path):
    p = Cells()
    p.feed(open(path, encoding='utf-8').read())
    return p
bad = []
p = cells(sys.argv[2])
# GitHub would turn @name and #123 into a mention and a cross-reference in
# the rendered text: a zero-width space after @ and # (before a letter or
# digit) keeps them text; it is the only change to the text.
got = [c.replace('@' + ZWSP, '@').replace('#' + ZWSP, '#') for c in p.cells]
expect = ['i', 'v'] + [x for i, s in enumerate(want) for x in (str(i), s)]
for g, w in zip(got, expect):
    if g != w:
        bad.append(f'rendered {g!r}, expected {w!r}')
if len(got) != len(expect):
    bad.append(f'{len(got)} cells, expected {len(expect)}')
if p.tags - {'table', 'thead', 'tbody', 'tr', 'th', 'td'}:
    bad.append(f'elements beyond the table: {sorted(p.tags)}')
if ZWSP + ' ' in ''.join(p.cells) or '@' + ZWSP + 'm' not in ''.join(p.cells):
    bad.append('the zero-width space after @ only before a letter or digit')
q = cells(sys.argv[3])
if q.cells != ['**h** <i>', '*a*\n<b>'] or q.tags - {'table', 'thead', 'tbody', 'tr', 'th', 'td', 'br'}:
    bad.append(f'a header and a line break: {q.cells} {sorted(q.tags)}')
for b in bad:
    print('  ' + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
checks=$((checks + 1))
# The exact bytes of a few, so that the escaping is fixed, not only its effect.
run bd sql "SELECT 'x\\|y' AS a, '<s>' AS b, '@o' AS c, 'BM_Sort _x_' AS d, '[l](u)' AS e" --format markdown
expect_out '| a      | b     | c         | d             | e        |
| ------ | ----- | --------- | ------------- | -------- |
| x\\\|y | \<s\> | @&#8203;o | BM_Sort \_x\_ | \[l\](u) |' "the escaped bytes"
# CSV and JSON keep every byte.
run bd sql "SELECT '**b** <s>|' AS v" --format csv
expect_eq "$(tail -n 1 "$T/out" | tr -d '\r')" '**b** <s>|' "CSV is not Markdown"

finish
