"""The app's runners: long runs report progress, short runs show nothing."""

import time

from svmlab.ui.runners import ProgressBar

# Tolerance table: none — progress fractions are exact ratios t / T.


class FakeSlot:
    def __init__(self):
        self.calls = []

    def progress(self, value, text=""):
        self.calls.append((value, text))


def test_short_runs_show_no_progress_bar():
    slot = FakeSlot()
    bar = ProgressBar(slot, delay=10.0)
    for t in range(1, 101):
        bar(t, 100)
    assert slot.calls == []


def test_long_runs_show_fraction_and_iteration():
    slot = FakeSlot()
    bar = ProgressBar(slot, delay=0.0)
    bar(250, 1000)
    assert slot.calls == [(0.25, "Training… t = 250 of T = 1,000")]
    bar(260, 1000)  # within 0.1 s of the last update: throttled
    assert len(slot.calls) == 1
    time.sleep(0.11)
    bar(1000, 1000)
    assert slot.calls[-1][0] == 1.0
