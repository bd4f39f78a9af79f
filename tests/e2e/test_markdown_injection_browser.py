"""Hostile text in a share link or an uploaded file is shown as text in a real browser.

The app's messages quote what a link or a file held; Streamlit's front end renders them
as Markdown. Here Chromium opens a link whose values and keys are Markdown payloads (an
image and a link on a host of this machine, raw HTML, a KaTeX ``\\href``, emphasis, an
angle autolink, a literal ``www.`` link), then uploads a CSV named and filled with them
and a lesson file holding them. In every message box the payloads' text is there, and no
``<img>``, ``<a>``, KaTeX, emphasis or code element came from them; the browser made no
request to the payloads' host.
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest

from svmlab.state.statecheck import show_value

from . import conftest
from .conftest import ROOT, AppServer

# Tolerance table: none — counts of elements and requests are exact.

pytestmark = pytest.mark.browser

TIMEOUT_MS = 60_000
SIDEBAR = '[data-testid="stSidebar"]'
ALERT = '[data-testid="stAlert"]'
HOST = "127.0.0.1:8729"  # nothing listens there: a request would only be logged
PAYLOADS = (
    f"![v](http://{HOST}/val.png)",
    f"[text](http://{HOST}/link)",
    "<img src=x onerror=alert(1)>",
    f"$\\href{{http://{HOST}/m}}{{M}}$",
    "**b**",
    f"<http://{HOST}/auto>",
    "www.w.example",
)
#: What the payloads may become in the DOM of a message box (none may appear).
RENDERED_JS = """(sel) => Array.from(document.querySelectorAll(sel)).map(box => ({
  text: box.innerText.replaceAll('\\u2060', ''),  // the invisible word joiners
  img: box.querySelectorAll('img').length,
  a: box.querySelectorAll('a').length,
  katex: box.querySelectorAll('.katex').length,
  em: Array.from(box.querySelectorAll('strong, em, b, i'))
        .filter(e => !e.innerText.startsWith('This link could not be read')).length,
  code: box.querySelectorAll('code').length,
}))"""


@pytest.fixture(scope="module")
def app():
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(conftest, "free_port", lambda: 8721)  # this work's port range
        server = AppServer(ROOT / "app.py")
    yield server
    server.stop()


def _idle(tab):
    tab.wait_for_timeout(300)
    tab.wait_for_function(
        """() => !document.querySelector('[data-testid="stStatusWidget"]')""", timeout=TIMEOUT_MS
    )


def _boxes(tab) -> list[dict]:
    return tab.evaluate(RENDERED_JS, ALERT)


def _clean(boxes: list[dict]) -> list[dict]:
    return [b for b in boxes if b["img"] or b["a"] or b["katex"] or b["em"] or b["code"]]


def test_a_hostile_link_and_hostile_files_show_their_text_only(app, page):
    query = {
        "kernel_pegasos_lam": PAYLOADS[0],
        PAYLOADS[1]: "1",
        "split": PAYLOADS[2],
        "plane": PAYLOADS[3],
        "pts": "AAAA",
        "ex": PAYLOADS[4],
        "done": PAYLOADS[5],
        "present": PAYLOADS[6],
    }
    page.goto(app.url + "kernel_pegasos?" + urlencode(query))
    page.locator(ALERT).filter(has_text="This link could not be read in full").wait_for(
        timeout=TIMEOUT_MS
    )
    _idle(page)
    boxes = _boxes(page)
    assert _clean(boxes) == [], boxes
    link_box = next(b for b in boxes if "could not be read" in b["text"])
    for payload in PAYLOADS:  # each one quoted as text, as show_value writes it
        assert show_value(payload)[1:31] in link_box["text"], (payload, link_box["text"])

    side = page.locator(SIDEBAR)
    side.get_by_text("Import / export").click()
    uploader = side.locator('[data-testid="stFileUploader"]').filter(has_text="Import points")
    files = [
        (f"{PAYLOADS[4]} {PAYLOADS[2]}.csv", f"x1,x2,label\n{PAYLOADS[0]},1,1\n"),
        (f"{PAYLOADS[3]}.csv", "x1,x2,label\n0,0,-1\n1,1,1\n"),
        (
            "lesson.json",
            json.dumps(
                {
                    "format": "svmlab-lesson",
                    "v": 1,
                    "page": PAYLOADS[1],
                    "params": {PAYLOADS[0]: 1},
                    "plane": PAYLOADS[3],
                    PAYLOADS[5]: 1,
                }
            ),
        ),
    ]
    for name, text in files:
        uploader.locator("input[type=file]").set_input_files(
            files=[{"name": name, "mimeType": "text/plain", "buffer": text.encode()}]
        )
        page.wait_for_timeout(500)
        _idle(page)
        boxes = _boxes(page)
        assert any(name[:20] in b["text"] or "lesson" in b["text"] for b in boxes), boxes
        assert _clean(boxes) == [], (name, boxes)
    assert not [u for u in page.requests if HOST in u], page.requests
    log = app.output()
    assert "Traceback" not in log, log
