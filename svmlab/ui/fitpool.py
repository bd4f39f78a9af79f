"""Heavy work in one worker process, so that the server's Python thread stays responsive.

A Streamlit server runs every session's script in a thread of one Python process: a fit
that loops in Python for seconds (linear Pegasos or the Perceptron at T = 10⁶) holds the GIL in
5 ms slices and slows every other session's click and the websocket loop with it. A fit
whose estimated cost is above :data:`HEAVY_S` (1 s) is therefore sent to a
``concurrent.futures.ProcessPoolExecutor`` with one worker (spawned once, kept), and the
script thread waits for it without holding the GIL. Light fits (the pages' defaults)
stay in the server: a round trip to the worker would cost more than they do.

The cost model is measured (``benchmarks/bench_server.py`` machine, one BLAS thread):
about 3 µs per SGD iteration (linear or kernel Pegasos, the multiclass SGDs; a little
more per point for the kernel ones) and about 1e−8·n³ s for a solver without T (the
dense interior-point QP; SMO is far below it).

Any callable that pickles can be run the same way (:func:`call`), e.g. an export.
No Streamlit here: the caller shows the waiting (``on_wait``).
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing as mp
import os
import sys
import threading
import time
import types
from collections.abc import Callable

__all__ = ["HEAVY_S", "call", "estimated_seconds", "fit", "is_heavy", "shutdown"]

#: A fit estimated to take longer than this (seconds) runs in the worker process
#: (environment ``SVMLAB_HEAVY_S``: e.g. ``inf`` keeps every fit in the server, to compare).
#: Measured (benchmarks/bench_load.py --heavy): fits of 0.3–0.5 s served the heavy user and
#: the others as well in the server as in the worker (whose pickled round trip and start
#: cost more than the GIL slices they free), so only the fits of a second or more go.
HEAVY_S = float(os.environ.get("SVMLAB_HEAVY_S", "1.0"))
#: Seconds per SGD iteration, and per iteration and point (kernel rows), and per n³.
PER_STEP_S = 3e-6
PER_STEP_POINT_S = 2e-9
PER_CUBE_S = 1e-8
#: How often a waiting caller hears of the wait (seconds).
POLL_S = 0.1

#: CPUs for the worker (environment ``SVMLAB_WORKER_CPUS``, e.g. "1"): a server pinned to
#: one core (``taskset -c 0``) would otherwise share that core with its own worker.
WORKER_CPUS = os.environ.get("SVMLAB_WORKER_CPUS", "")

_LOCK = threading.Lock()
_POOL: list = [None]


def estimated_seconds(n: int, params: dict) -> float:
    """The estimated seconds of one fit on n points with ``params`` (see the module doc)."""
    n = int(n)
    T = params.get("T")
    if T is not None:
        return float(T) * (PER_STEP_S + PER_STEP_POINT_S * n)
    return PER_CUBE_S * float(n) ** 3


def is_heavy(n: int, params: dict, threshold: float | None = None) -> bool:
    """Whether a fit is worth sending to the worker process (above ``threshold`` seconds,
    :data:`HEAVY_S` by default)."""
    return estimated_seconds(n, params) > (HEAVY_S if threshold is None else threshold)


def pin_worker(cpus: str) -> None:
    """The worker's initializer: run on ``cpus`` ("1", "1,2"; empty: as inherited)."""
    wanted = {int(c) for c in cpus.split(",") if c.strip()}
    if wanted and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, wanted & set(range(os.cpu_count() or 1)) or wanted)


def _pool() -> cf.ProcessPoolExecutor:
    with _LOCK:
        if _POOL[0] is None:
            # spawn: a fresh interpreter (forking a server with live threads is unsafe)
            pool = cf.ProcessPoolExecutor(
                max_workers=1,
                mp_context=mp.get_context("spawn"),
                initializer=pin_worker,
                initargs=(WORKER_CPUS,),
            )
            # A spawned worker imports the parent's __main__ again, and under Streamlit
            # (or AppTest) that is the page script: it would run the app in the worker.
            # Start the worker now, while __main__ is an empty module.
            main = sys.modules.get("__main__")
            sys.modules["__main__"] = types.ModuleType("__main__")
            try:
                started = pool.submit(int)
            finally:
                if main is not None:
                    sys.modules["__main__"] = main
            started.result()
            _POOL[0] = pool
        return _POOL[0]


def shutdown() -> None:
    """Stop the worker process (a new one is spawned on the next call)."""
    with _LOCK:
        pool, _POOL[0] = _POOL[0], None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def call(fn: Callable, *args, on_wait: Callable[[float], None] | None = None, **kwargs):
    """``fn(*args, **kwargs)`` in the worker process; its result, or its exception raised.

    ``on_wait(elapsed_seconds)`` is called every :data:`POLL_S` while waiting. If the
    worker died (``BrokenProcessPool``), the pool is replaced and ``fn`` runs here.
    """
    start = time.perf_counter()
    try:
        future = _pool().submit(fn, *args, **kwargs)
        while True:
            try:
                return future.result(timeout=POLL_S)
            except cf.TimeoutError:
                if on_wait is not None:
                    on_wait(time.perf_counter() - start)
    except cf.process.BrokenProcessPool:
        shutdown()
        return fn(*args, **kwargs)


def fit_here(algorithm: str, X, y, params: dict):
    """The registry's fit of ``algorithm`` (what the worker runs; picklable by name)."""
    from svmlab.algorithms import ALGORITHMS

    return ALGORITHMS[algorithm].fit(X, y, params)


def fit(algorithm: str, X, y, params: dict, *, on_wait=None):
    """Fit ``algorithm`` on (X, y) in the worker process (see :func:`call`)."""
    return call(fit_here, algorithm, X, y, dict(params), on_wait=on_wait)
