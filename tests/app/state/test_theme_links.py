"""The page's theme in share links and lesson files (svmlab.state: codec and checks).

A link carries ``theme=dark`` or ``theme=contrast``; light, the default, is left out, so
that every link written before the theme switch existed opens in light. A bad value is
refused by name and the page opens in light.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from svmlab.state import lesson, urlstate
from svmlab.state.labstate import FIELDS, THEMES, LabState, read_theme
from svmlab.state.statecheck import RESERVED

# Tolerance table: none — links and lesson files are text, compared exactly


@pytest.mark.parametrize("name", THEMES)
def test_the_theme_goes_into_the_link_and_comes_back(name):
    s = LabState(page="kernel_pegasos", present=True, theme=name)
    q = urlstate.encode_state(s)
    assert q.get("theme") == (None if name == "light" else name)
    r = urlstate.decode_state(q)
    assert r.ok and r.state.theme == name
    assert ("theme" in r.read) == (name != "light")
    assert urlstate.parse_link(f"/kernel_pegasos?{urlstate.state_to_query_string(s)}").state == s


def test_the_theme_sits_with_the_flags_in_the_links_order():
    q = urlstate.encode_state(LabState(page="home", present=True, theme="contrast", snap=3))
    assert list(q) == ["v", "page", "snap", "present", "theme"]
    assert "theme" in RESERVED and FIELDS.index("theme") == FIELDS.index("present") + 1


def test_an_old_link_without_a_theme_opens_in_light():
    r = urlstate.parse_link("/kernel_pegasos?v=1&present=1&lam=0.1")
    assert r.state.theme == "light" and "theme" not in r.read


@pytest.mark.parametrize("raw", ["Dark", "sepia", "", "1"])
def test_a_bad_theme_is_refused_by_name_and_the_page_opens_in_light(raw):
    r = urlstate.decode_state({"v": "1", "page": "home", "theme": raw})
    assert r.state.theme == "light" and "theme" not in r.read
    (msg,) = r.messages
    assert msg.startswith("theme: ") and "is not one of light, dark, contrast" in msg
    assert read_theme("dark") == ("dark", None) and read_theme(None) == (None, None)


def test_a_state_refuses_an_unknown_theme():
    with pytest.raises(ValueError, match="theme must be one of"):
        LabState(theme="neon")


def test_lesson_files_keep_the_theme_and_old_ones_open_in_light():
    s = LabState(page="dual_svm", theme="dark")
    text = lesson.lesson_json(s)
    assert json.loads(text)["theme"] == "dark"
    assert lesson.read_lesson(text).state == s
    doc = json.loads(lesson.lesson_json(replace(s, theme="light")))
    del doc["theme"]  # a file written before the theme switch
    r = lesson.read_lesson(json.dumps(doc))
    assert r.ok and r.state.theme == "light"
    doc["theme"] = 7
    r = lesson.read_lesson(json.dumps(doc))
    assert r.state.theme == "light" and r.messages[0].startswith("theme: 7 is not one of")
