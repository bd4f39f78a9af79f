"""User input in the app's messages is shown as text, never rendered as Markdown.

A share link, a lesson file, an uploaded CSV / LIBSVM file (its name and its cells) and
a table cell are quoted by the app's messages ("… is not a valid value"). Streamlit renders
those messages as Markdown (CommonMark + GitHub's extensions + ``$`` math + directives), so
``kernel_pegasos_lam=![v](http://127.0.0.1:8729/val.png)`` made the app's own warning
fetch that image in every viewer's browser. :func:`svmlab.ui.safe_text.md_text` escapes them.

Each payload below goes through every input path (the link on every page — a bound value,
an unknown key, ``v``, ``alg``, ``plane``, ``pts``, ``ex``, ``present``, ``done`` — a
lesson file's fields and name, a CSV's name, header and cells, a LIBSVM token, a non-UTF-8
file's name, a table cell), and every Markdown element the page then holds that quotes the
payload is checked with :func:`rendered`, a model of the constructs Streamlit's renderer
(``react-markdown`` with ``remark-gfm``, ``remark-math``, ``remark-directive``) turns into
something other than text. ``tests/e2e/test_markdown_injection_browser.py`` checks the
real renderer in Chromium.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from svmlab.ui.safe_text import WORD_JOINER, md_text, shown_text

# Tolerance table: none — a construct is rendered or not.

ROOT = Path(__file__).resolve().parents[3]
TIMEOUT_S = 240
#: (payload, a part of it that identifies it in a message, even lower-cased or cut at 40)
PAYLOADS = (
    ("![v](http://127.0.0.1:8729/val.png)", "127.0.0.1"),
    ("[text](http://x.example/)", "x.example"),
    ("<img src=x>", "img"),
    ("$\\href{http://m.example}{M}$", "href"),
    ("**b**", "**b**"),
)
#: More constructs, for the helper alone.
MORE = (
    "<http://a.example>",
    "www.w.example",
    "mail@e.example",
    ":red[colour] :material/home: :smile:",
    "`code` ~~gone~~ | a | b |",
    "# heading",
    "&lt;b&gt; &#60;i&#62;",
    "\n\n- item\n1. one\n> quote\n    indented",
    "[ref][1]\n\n[1]: http://r.example",
    "$$x$$ \\(y\\) \\\\[z]",
)
#: Texts whose backslashes Markdown would eat: shown as they are all the same.
LITERAL = ("a\\*b\\*", "C:\\path\\n", "50% off; 3 < 4 > 2 = yes?")
LAB_PAGES = (
    "linear_pegasos",
    "kernel_pegasos",
    "dual_svm",
    "multiclass",
    "feature_space",
    "compare",
)
PAGES = ("home", *LAB_PAGES, "exercises")

_PUNCT = re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_ESCAPE = re.compile(rf"\\([{_PUNCT}])")
#: GitHub's literal autolinks as Streamlit's renderer finds them in the parsed text.
_LITERAL_LINK = re.compile(r"(?i)(https?://|www(?=\.))[-.\w]+")
_EMAIL = re.compile(r"[-.\w+]+@[-\w]+(?:\.[-\w]+)+")


def rendered(markdown: str, *, blocks: bool = False, emphasis: bool = True) -> list[str]:
    """The constructs Streamlit would render from ``markdown`` other than as text.

    Backslash-escaped punctuation is text (CommonMark §2.4): it is masked before the
    syntax is searched. GitHub's literal autolinks (``http://…``, ``www.…``, e-mail) and
    emoji shortcodes are found after the escapes are resolved, in the parsed text.
    ``blocks``: also block constructs after a line break (a list item, a quote, indented
    code) — not for the app's messages, whose own lines are list items; ``emphasis``
    False: not emphasis either (the app's own message titles are bold).
    """
    syntax = _ESCAPE.sub("\x00", markdown)
    text = _ESCAPE.sub(r"\1", markdown)
    found = []
    checks = (
        ("image or link", re.compile(r"\]\(|\]\[|^\s*\[[^\]]*\]:", re.M), syntax),
        ("HTML or angle autolink", re.compile(r"<[A-Za-z/!?]"), syntax),
        ("entity", re.compile(r"&(#\d+|#x[0-9a-f]+|[A-Za-z][A-Za-z0-9]*);", re.I), syntax),
        ("math", re.compile(r"\$"), syntax),
        ("emphasis", re.compile(r"(\*\*|__)\S.*?\1|\*\S[^*]*\*"), syntax if emphasis else ""),
        ("code", re.compile(r"`"), syntax),
        ("strikethrough", re.compile(r"~~"), syntax),
        ("directive or icon", re.compile(r":[A-Za-z][\w/-]*(\[|:)"), text),
        ("heading", re.compile(r"^\s{0,3}#", re.M), syntax),
        (
            "block",
            re.compile(r"\n\s{0,3}([-+*]|\d+[.)]|>)(\s|$)|\n {4,}\S"),
            syntax if blocks else "",
        ),
        ("literal autolink", _LITERAL_LINK, text),
        ("e-mail autolink", _EMAIL, text),
    )
    for name, pattern, where in checks:
        if pattern.search(where):
            found.append(name)
    return found


def _quoting(at: AppTest, mark: str) -> list[str]:
    """The Markdown bodies of the page's messages, captions and text that quote ``mark``."""
    bodies = []
    for kind in ("warning", "error", "info", "success", "caption", "markdown", "toast"):
        for el in at.get(kind):
            body = getattr(el, "body", None) or getattr(el, "value", None) or ""
            plain = shown_text(body) if isinstance(body, str) else ""
            if mark in plain or mark.lower() in plain.lower():
                bodies.append(body)
    return bodies


def _check(at: AppTest, mark: str) -> tuple[int, list]:
    """(message lines quoting the payload, [(construct, body)] rendered from them)."""
    assert not at.exception, [e.message for e in at.exception]
    bodies = _quoting(at, mark)
    lines = [ln for b in bodies for ln in shown_text(b).split("\n") if mark.lower() in ln.lower()]
    bad = [(name, body) for body in bodies for name in rendered(body, emphasis=False)]
    # the payload's own punctuation unescaped (its "**b**" would be bold)
    if re.search(f"[{_PUNCT}]", mark):
        bad += [("unescaped", body) for body in bodies if mark in _ESCAPE.sub("\x00", body)]
    return len(lines), bad


# -- the helper ----------------------------------------------------------------------------
@pytest.mark.parametrize("payload", [p for p, _ in PAYLOADS] + list(MORE))
def test_the_model_sees_each_payload_rendered_without_the_helper(payload):
    assert rendered(payload, blocks=True)  # the model is not blind


@pytest.mark.parametrize("payload", [p for p, _ in PAYLOADS] + list(MORE) + list(LITERAL))
def test_escaped_text_renders_nothing_and_reads_the_same(payload):
    md = md_text(payload)
    assert rendered(md, blocks=True) == [] and rendered(f"- {md}", blocks=True) == []
    assert shown_text(md) == " ".join(payload.split())
    assert "\n" not in md


def test_the_word_joiner_is_invisible_and_breaks_only_the_patterns():
    md = md_text("see http://a.example or www.b.example, mail a@c.example :smile:")
    # after "http:", "www", "@" and the shortcode's first ":" (a ":" before a space: none)
    assert md.count(WORD_JOINER) == 4
    assert WORD_JOINER not in md_text("lam: 'abc' is not a number; a@ b")
    assert rendered(md) == []


# -- every input path ------------------------------------------------------------------------
def _open(page: str, query: dict) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(f"pages/{page}.py")
    return at.run()


def _link_paths(payload: str) -> dict:
    """Every part of a link that a message may quote, with the payload in it."""
    return {
        "split": payload,  # a bound widget's value (the split radio, on every lab page)
        payload: "1",  # an unknown key
        "alg": payload,
        "plane": payload,
        "pts": "AAAA",
        "ex": payload,
        "present": payload,
        "done": payload,
    }


TALLY: dict[str, list] = {}


@pytest.mark.slow
@pytest.mark.parametrize(("payload", "mark"), PAYLOADS)
@pytest.mark.parametrize("page", PAGES)
def test_a_link_quoting_the_payload_renders_it_as_text(page, payload, mark):
    at = _open(page, _link_paths(payload))
    n, bad = _check(at, mark)
    TALLY.setdefault("link", []).append((n, len(bad)))
    assert n >= 1 and bad == []


@pytest.mark.parametrize(("payload", "mark"), PAYLOADS)
def test_a_link_of_an_unknown_version_quotes_it_as_text(payload, mark):
    at = _open("kernel_pegasos", {"v": payload, "kernel_pegasos_lam": "0.1"})
    n, bad = _check(at, mark)
    TALLY.setdefault("link", []).append((n, len(bad)))
    assert n == 1 and bad == []


def _upload_script(name: str, data: bytes, table_cell: str | None):
    """The data panel in a page run, after an upload of ``data`` named ``name`` (what the
    uploader's on_change does) or a table edit of one cell."""
    import streamlit as st

    from svmlab.ui import data_panel, data_table, linkstate
    from svmlab.ui.session import get_session

    class Upload:
        file_id = "f1"

        def __init__(self):
            self.name = name

        def getvalue(self):
            return data

    with linkstate.page_link("kernel_pegasos"):
        if not st.session_state.get("sent"):
            st.session_state["sent"] = True
            if table_cell is None:
                st.session_state["data_upload"] = Upload()
                data_panel._import_file("data_upload", 2)
            else:
                s = get_session()
                tkey = data_table.table_key(s, "data")
                st.session_state[tkey] = {"edited_rows": {0: {"x1": table_cell}}}
                data_table.apply_table(tkey, s.version, 2)
        data_panel.data_controls(n_classes=2)


def _upload(name: str, data: bytes, table_cell: str | None = None) -> AppTest:
    at = AppTest.from_function(
        _upload_script, args=(name, data, table_cell), default_timeout=TIMEOUT_S
    )
    return at.run()


def _lesson(payload: str) -> bytes:
    doc = {
        "format": "svmlab-lesson",
        "v": 1,
        "page": payload,
        "alg": payload,
        "params": {payload: 1, "kernel_pegasos_lam": payload},
        "classes": payload,
        "plane": payload,
        "snap": payload,
        "present": payload,
        "done": [payload],
        "points": [[payload, 1, 0]],
        payload: 1,
    }
    return json.dumps(doc).encode()


def _file_paths(payload: str) -> dict[str, tuple]:
    """Every file path that quotes the payload: (name, bytes[, table cell])."""
    good_csv = b"x1,x2,label\n0,0,-1\n1,1,1\n"
    return {
        "CSV name": (f"{payload}.csv", good_csv),
        "CSV cell": ("points.csv", f"x1,x2,label\n{payload},1,1\n".encode()),
        "CSV row": ("points.csv", f"x1,x2,label\n1 {payload}\n".encode()),
        "CSV header": ("points.csv", f"{payload},b,c\n1,2,1\n".encode()),
        "CSV bad name": (f"{payload}.csv", f"x1,x2,label\n{payload},1,1\n".encode()),
        # a LIBSVM line is split at spaces: the payload without them
        "LIBSVM token": ("points.libsvm", f"+1 1:{payload.replace(' ', '')}\n".encode()),
        "LIBSVM feature": ("points.libsvm", f"+1 {payload.replace(' ', '')}\n".encode()),
        "non-UTF-8 name": (f"{payload}.csv", b"\xff\xfe\x00"),
        "lesson fields": ("lesson.json", _lesson(payload)),
        "lesson version": (
            "lesson.json",
            json.dumps({"format": "svmlab-lesson", "v": payload}).encode(),
        ),
        "lesson name": (
            f"{payload}.json",
            json.dumps(
                {"format": "svmlab-lesson", "v": 1, "points": [[0, 0, 0], [1, 1, 1]]}
            ).encode(),
        ),
        "table cell": ("", b"", payload),
    }


@pytest.mark.slow
@pytest.mark.parametrize(("payload", "mark"), PAYLOADS)
def test_files_and_cells_quoting_the_payload_render_it_as_text(payload, mark):
    for path, args in _file_paths(payload).items():
        at = _upload(*args)
        n, bad = _check(at, mark)
        TALLY.setdefault("file", []).append((n, len(bad)))
        assert n >= 1 and bad == [], (path, bad)


def test_zz_the_tally(capsys):
    """The counts for the report (the other tests of this module ran first)."""
    with capsys.disabled():
        for kind, runs in TALLY.items():
            quoted = sum(n for n, _ in runs)
            rendered_ = sum(b for _, b in runs)
            print(
                f"\n{kind}: {len(runs)} runs, {quoted} message lines quoting a payload, "
                f"{rendered_} rendered constructs"
            )
