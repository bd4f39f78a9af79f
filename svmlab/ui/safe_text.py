"""Text from outside (a link, a file, a table cell) shown as text in Streamlit's Markdown.

``st.markdown``, ``st.warning``, ``st.error``, ``st.info``, ``st.success`` and
``st.caption`` render their body as Markdown: CommonMark with GitHub's extensions (tables,
strikethrough, literal autolinks), ``$…$`` / ``$$…$$`` as KaTeX, ``:name[…]`` directives
(colours, small text), ``:material_…:`` icons and ``:emoji:`` shortcodes. A message that
quotes what a share link or a file held as it is would let that input put an image
(``![v](http://host/x.png)``, fetched by every viewer's browser), a live link, a formula
(``$\\href{…}{…}$``) or emphasis into the app's own message box.

:func:`md_text` makes any text render literally:

* every ASCII punctuation character is backslash-escaped (CommonMark §2.4 allows it for
  each one): no link, image, angle autolink, HTML, entity, emphasis, code span, math,
  directive, heading, list, quote, table or strikethrough can start;
* GitHub's *literal* autolinks (``http://…``, ``https://…``, ``www.…``, ``a@b.c``) and
  emoji shortcodes are found by Streamlit's renderer in the text *after* the escapes are
  resolved (``mdast-util-gfm-autolink-literal`` and ``remark-emoji`` search the parsed text
  nodes), so a backslash cannot stop them: an invisible U+2060 WORD JOINER after a ``:``
  or ``@`` that a space does not follow, and after ``www``, breaks their patterns, and
  the text reads the same;
* line breaks and runs of white space become one space (a message is one line; a
  leading blank run would start an indented code block).

Every message that quotes user input goes through it (:mod:`svmlab.ui.linkstate`'s link
message, the data panel's messages and import errors); ``tests/test_safe_text.py`` feeds
hostile payloads through each input path. Pure Python: no Streamlit.
"""

from __future__ import annotations

import re
import string

__all__ = ["WORD_JOINER", "md_text", "shown_text"]

#: Invisible, zero-width, no line break: splits ``http:⁠//``, ``a@⁠b`` and ``:⁠smile:``.
WORD_JOINER = "\u2060"

_PUNCT = frozenset(string.punctuation)
_SPACE = re.compile(r"\s+")
_BREAK = re.compile(r"(?i)(www)(?=\.)")
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def md_text(text) -> str:
    """``text`` as Markdown that Streamlit renders as exactly that text.

    Parameters
    ----------
    text : object
        Any value; ``str(text)`` is shown.

    Returns
    -------
    str
        The text with every ASCII punctuation character backslash-escaped, a word joiner
        (U+2060) after each ``:`` and ``@`` not followed by a space and after a ``www``
        followed by ``.`` (so that no literal autolink or emoji shortcode forms), and white
        space collapsed to single spaces (leading and trailing space removed).

    Examples
    --------
    >>> md_text("**b** [t](u)")
    '\\\\*\\\\*b\\\\*\\\\* \\\\[t\\\\]\\\\(u\\\\)'
    """
    flat = _SPACE.sub(" ", str(text)).strip()
    flat = _BREAK.sub(r"\1" + WORD_JOINER, flat)
    out = []
    for ch, after in zip(flat, flat[1:] + " ", strict=True):
        if ch in _PUNCT:
            out.append("\\" + ch)
            if ch in ":@" and after != " ":  # "a: b" stays as it is
                out.append(WORD_JOINER)
        else:
            out.append(ch)
    return "".join(out)


def shown_text(markdown: str) -> str:
    """What a reader sees of :func:`md_text`'s output: the escapes and word joiners removed.

    ``shown_text(md_text(t))`` is ``t`` with its white space collapsed (for tests and for
    quoting a message outside Markdown).
    """
    return _ESCAPED.sub(r"\1", markdown).replace(WORD_JOINER, "")
