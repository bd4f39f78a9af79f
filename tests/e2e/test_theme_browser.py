"""The theme switch in a real browser (headless Debian Chromium, the app as the README runs it).

The sidebar's control and the ``t`` key switch light → dark → high contrast: the page's
colours, the plane and the shortcut overlay follow at once, and the share link keeps the
choice; a link without a theme opens in light even on a dark system (Streamlit itself would
follow the system). Every visible text of the page is measured against the background it is
drawn on (the nearest opaque ancestor, translucent layers composited): the high-contrast
theme reaches WCAG AAA (7 : 1), dark and light AA (4.5 : 1). Screenshots:
``artifacts/theme_*.png``.
"""

from __future__ import annotations

import time

import pytest

from svmlab.plot.look.palettes import get_theme

from .conftest import README_COMMAND, outside_requests, screenshot

# Tolerance table: none — contrast ratios are inequalities, colours the theme's own values

pytestmark = pytest.mark.browser

TIMEOUT_MS = 30_000  # one Streamlit rerun
LOAD_TIMEOUT_MS = 90_000  # a first page load on a cold server
PLOT = ".svmlab-canvas-plot"

#: The contrast ratio of every visible text against what it is drawn on (WCAG 2.1).
TEXT_CONTRAST_JS = """() => {
  const parse = c => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const v = m[1].split(',').map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
  const lum = ([r, g, b]) => { const f = x => { x /= 255;
    return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const under = (el) => {  // the background behind el: its layers down to an opaque one
    const me = el.getBoundingClientRect(), cx = me.left + me.width / 2, cy = me.top + me.height / 2;
    const layers = []; let n = el;
    while (n && n.nodeType === 1) {
      const r = n.getBoundingClientRect(), cs = getComputedStyle(n);
      const covers = cs.position !== 'absolute' ||
        (cx >= r.left && cx <= r.right && cy >= r.top && cy <= r.bottom);
      const c = parse(cs.backgroundColor);
      if (covers && c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
      n = n.parentElement;
    }
    let out = [255, 255, 255];
    for (let i = layers.length - 1; i >= 0; i--) {
      const c = layers[i]; out = out.map((v, k) => v * (1 - c[3]) + c[k] * c[3]);
    }
    return out;
  };
  const worst = []; let n = 0;
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg, .js-plotly-plot, [aria-hidden=true], template')) continue;
    if (el.closest('[style*="clip: rect(0px"]') || el.closest('[disabled]')) continue;
    const text = [...el.childNodes].filter(c => c.nodeType === 3 && c.textContent.trim())
      .map(c => c.textContent.trim()).join(' ');
    if (!text) continue;
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    if (r.width < 1 || r.height < 1 || cs.visibility === 'hidden' || +cs.opacity === 0) continue;
    let alpha = 1;  // the text's own alpha times every ancestor's opacity
    for (let a = el; a && a.nodeType === 1; a = a.parentElement) {
      alpha *= +getComputedStyle(a).opacity;
    }
    const bg = under(el), fg = parse(cs.color);
    alpha *= fg[3];
    if (alpha < 0.05) continue;  // not shown (a slider's bounds until it is hovered)
    const ink = fg.slice(0, 3).map((v, k) => v * alpha + bg[k] * (1 - alpha));
    worst.push([+ratio(ink, bg).toFixed(2), text.slice(0, 40), cs.color]);
    n++;
  }
  worst.sort((a, b) => a[0] - b[0]);
  return {n, worst: worst.slice(0, 5)};
}"""

BODY_BG_JS = "() => getComputedStyle(document.querySelector('.stApp')).backgroundColor"
PLANE_BG_JS = f"() => document.querySelector('{PLOT}').layout.paper_bgcolor"
OVERLAY_JS = """() => {
  const p = document.querySelector('.svmlab-keys-panel');
  if (!p || p.closest('[hidden]')) return null;
  const cs = getComputedStyle(p); return [cs.backgroundColor, cs.color];
}"""


def _rgb(hex_colour: str) -> str:
    h = hex_colour.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(h[i : i + 2], 16) for i in (0, 2, 4)))


@pytest.fixture(scope="module")
def server(start_app):
    return start_app("app.py", command=README_COMMAND)


def _open(page, server, path: str) -> None:
    page.goto(server.url + path, timeout=LOAD_TIMEOUT_MS)
    page.wait_for_selector(f"{PLOT} .main-svg", timeout=LOAD_TIMEOUT_MS)
    page.wait_for_selector(".svmlab-keys-hint", state="attached", timeout=TIMEOUT_MS)
    time.sleep(1.0)


def _wait_theme(page, name: str) -> None:
    t = get_theme(name)
    page.wait_for_function(f"() => ({BODY_BG_JS})() === '{_rgb(t.background)}'", timeout=TIMEOUT_MS)
    page.wait_for_function(
        f"() => ({PLANE_BG_JS})() === '{t.background}' "
        f"|| ('{name}' === 'light' && !({PLANE_BG_JS})())",
        timeout=TIMEOUT_MS,
    )


def _texts_reach(page, minimum: float) -> dict:
    result = page.evaluate(TEXT_CONTRAST_JS)
    assert result["n"] > 50, result  # the page's texts were measured
    assert result["worst"][0][0] >= minimum, result["worst"]
    return result


def _overlay(page, name: str) -> None:
    t = get_theme(name)
    page.keyboard.press("?")
    page.wait_for_function(f"() => ({OVERLAY_JS})() !== null", timeout=TIMEOUT_MS)
    bg, fg = page.evaluate(OVERLAY_JS)
    assert (bg, fg) == (_rgb(t.background), _rgb(t.text))
    page.keyboard.press("Escape")


def test_the_switch_repaints_the_page_the_plane_and_the_overlay(page, server):
    _open(page, server, "kernel_pegasos")
    _wait_theme(page, "light")
    page.get_by_role("radio", name="Dark").click()
    _wait_theme(page, "dark")
    page.wait_for_function("() => location.search.includes('theme=dark')", timeout=TIMEOUT_MS)
    time.sleep(0.5)
    _texts_reach(page, 4.5)
    _overlay(page, "dark")
    screenshot(page, "theme_dark")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("t")  # dark → high contrast
    _wait_theme(page, "contrast")
    page.wait_for_function("() => location.search.includes('theme=contrast')", timeout=TIMEOUT_MS)
    page.keyboard.press("t")  # → light: the link leaves it out
    _wait_theme(page, "light")
    page.wait_for_function("() => !location.search.includes('theme=')", timeout=TIMEOUT_MS)
    assert not outside_requests(page.requests)


def test_the_projector_theme_meets_aaa_for_every_text_even_on_a_dark_system(
    browser_context, server
):
    page = browser_context.new_page()
    try:
        page.emulate_media(color_scheme="dark")  # Streamlit's own theme is dark here
        _open(page, server, "kernel_pegasos?theme=contrast")
        _wait_theme(page, "contrast")
        layout = page.evaluate(f"() => document.querySelector('{PLOT}').layout.font")
        assert layout["color"] == get_theme("contrast").text
        result = _texts_reach(page, 7.0)
        _overlay(page, "contrast")
        screenshot(page, "theme_contrast")
        print("contrast: lowest text ratios", result["worst"])
    finally:
        page.close()


def test_a_link_without_a_theme_opens_light_on_a_dark_system(browser_context, server):
    page = browser_context.new_page()
    try:
        page.emulate_media(color_scheme="dark")
        _open(page, server, "linear_pegasos")
        _wait_theme(page, "light")
        checked = page.get_by_role("radio", name="Light").get_attribute("aria-checked")
        assert checked == "true"
        _texts_reach(page, 4.5)
        screenshot(page, "theme_light_on_dark_system")
    finally:
        page.close()


def test_presenter_mode_in_the_projector_theme_keeps_aaa(browser_context, server):
    page = browser_context.new_page()
    try:
        page.set_viewport_size({"width": 1280, "height": 720})
        _open(page, server, "kernel_pegasos?present=1&theme=contrast")
        _wait_theme(page, "contrast")
        result = page.evaluate(TEXT_CONTRAST_JS)
        assert result["n"] >= 8 and result["worst"][0][0] >= 7.0, result
        screenshot(page, "theme_contrast_presenter")
    finally:
        page.close()
