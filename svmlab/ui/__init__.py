"""The Streamlit side: router, page, session keys, runners, fit pool, data panel, presenter,
keyboard, theme switch, share-link state, panels and the custom components.

Rule: the only folder (with the registry's control builders) that imports Streamlit; it may
import every other svmlab folder, and nothing outside it imports it (``pages/`` and
``app.py`` excepted).
"""
