"""The fast engine of :func:`svmcore.sgd.kernel_pegasos.kernel_pegasos` (SSBD §16.3's box).

:class:`_BetaModel` runs the box's loop on g = y ∘ (Kβ) for
:func:`svmcore.sgd._engine.run_fast`: the same decisions as the box (β(T+1) equal to the
textbook loop's), the averaged output in O(1) per update, and, from m = 1,000 on, the rows
of a float32 copy of Q on a grid with every decision checked against a rigorous error band
(the class docstring). Split from :mod:`svmcore.sgd.kernel_pegasos` (the box, its
:func:`~svmcore.sgd.kernel_pegasos.step`, the result and the run), which it serves.
"""

from __future__ import annotations

import math

import numpy as np

from svmcore.sgd.common import QueuedUpdates, harmonic, harmonic_array, schedule_shift

__all__ = ["_BetaModel"]

_NOTHING_LEFT = np.zeros(1, dtype=bool)  # chunk_test's answer: no step of the chunk is left


class _BetaModel(QueuedUpdates):
    """The box for :func:`svmcore.sgd._engine.run_fast`: g = y ∘ (Kβ) = λ s(t) × margins.

    :meth:`chunk_test` runs the chunk's steps itself: the loop of
    :func:`svmcore.sgd._engine._scan` (test the rest of the chunk under the current g,
    accept the first step whose test fires, repeat) written out in place, without a
    Python call per accepted step, in windows sized by the engine's rule (``min_chunk``
    steps after a busy window, one where more than ``few`` of every ``min_chunk`` steps
    fired, else twice as many); it then tells the engine that no step of the chunk is left
    to accept. A window that follows a busy one (``step_below`` steps or fewer) runs
    ``step_window`` steps one at a time in Python instead, testing g_i (read through a
    memoryview, which follows the in-place updates) against λ s(t): with many steps
    accepted that costs less than re-scanning the window after each accepted step. The
    decisions and the order of the updates of g are those of the engine's loop either way,
    so the run is the same bit for bit. The accepted steps are marked in a byte per step
    and folded into β and D once per chunk (:meth:`fold`), in their order.

    Cost with many steps accepted: each accepted step adds a row of Q (m floats) to g,
    which at m = 2,000 (Q: 32 MB, about the size of the L3 cache) is most of the time —
    memory traffic of about 16 KB per accepted step.

    The float32 rows (a dense Q with m >= ``f32_from``; 4m² bytes more memory, 16 MB at
    m = 2,000, next to Q's 32 MB). Windows run one step at a time after one where more
    than 1/``f32_above`` of the steps fired add the rows of a float32 copy of Q, 8 KB a
    row at m = 2,000 (:meth:`_steps32`): the rows of up to K = ``fold_every`` accepted
    steps wait and are added to g by one float32 product (one NumPy call per K rows
    instead of one per row). Every decision is still the one of the exact sum
    G_i = Σ_a Q_{a i} over the accepted steps a (Q as computed, in float64):

    * the copy is Q↑ = h·rint(Q/h) on a grid h = 2^e with |Q↑/h| <= 2^23/K, so any sum
      of at most K of its entries is an integer multiple of h below 2^24 h: exact in
      float32, in any order (|Q − Q↑| <= q↓ = h/2);
    * g then differs from the exact sum of the rows added to it by at most a bound E
      known from counts alone (:meth:`_band`): q↓ per row of Q↑, the float64 roundings
      of the additions into g, and of the resync g = Qᵀ n (n_j: the number of accepted
      steps on j), a float64 product (about 1 ms at m = 2,000) done whenever
      ``resync_every`` rows of Q↑ have been added since the last, to keep E small;
    * a step with g_i below λ s(t) − E (less the bound of the rows still waiting) fires,
      one with g_i at or above λ s(t) + E (plus that bound) does not; any other (rare:
      ~1e-4 of the steps at m = 2,000, λ = 100/m) is decided by G_i itself,
      Σ_j n_j Q↑_{j i} (exact) + Σ_j n_j (Q − Q↑)_{j i} (tiny; :meth:`_exact_g`).

    So the decisions are those of the exact sum unless it lies within about
    1e-16 G_i + 1e-12 of λ s(t), where any float64 sum can go either way; for
    integer-valued K (the linear kernel on integer data) Q↑ = Q and G_i is exact, so
    exact ties stay ties (no update, as the box). They do not depend on how the steps
    are split into windows, nor on when the rows are added. The other windows of such a
    run add float64 rows, each at once, tested against the same band
    (:meth:`_steps64_band`, and the scanned windows); the recorded steps compute G_i.
    ``averaging="last"`` outputs f = K β/(λ s) by ``kmatvec``, as the textbook engine,
    not from g.
    """

    min_chunk, few, dense_above = 64, 8, 1.0  # re-scanning a chunk is cheap: never dense
    _window = 64  # the current window of chunk_test (adapted as the engine adapts chunks)
    step_below = 64  # windows this short (many steps fired) run one step at a time
    step_window = 1024  # the steps of such a window (its loop's set-up paid once per window)
    f32_from = 1000  # float32 rows from this m on (dense Q only)
    f32_above = 5  # ... in windows after one where more than 1/f32_above of the steps fired
    _busy = 1.0  # the share of the steps that fired in the last one-at-a-time window
    fold_every = 32  # K: at most K accepted rows wait to be added together (a power of 2)
    resync_every = 1 << 16  # accepted steps between two resyncs g = Qᵀ n

    def __init__(self, y, c, lam, schedule, averaging, Q, kmatvec, on_snapshot):
        m = y.shape[0]
        self.beta = np.zeros(m)  # β(t)
        self.D = np.zeros(m)  # D_j = Σ_u c_j y_j H(t_u) over the updates u of j
        self.g = np.zeros(m)  # y ∘ (Kβ)
        self.y, self.cy = y, c * y
        self.lam, self.averaging = lam, averaging
        self.shift = schedule_shift(schedule)
        self.Q, self.kmatvec, self.on_snapshot = Q, kmatvec, on_snapshot  # Q[i]: rows
        self.step_record = None  # set by kernel_pegasos: the recorded fields
        self.queue_i, self.queue_t = [], []  # accepted steps (i, t) not yet folded into β and D
        self._rows = list(Q) if isinstance(Q, np.ndarray) else Q  # Q[i] without a new view
        self.f32 = isinstance(Q, np.ndarray) and m >= self.f32_from and self._set_f32(Q)

    # -- the float32 rows (see the class docstring) ------------------------------------
    def _set_f32(self, Q):
        """The grid h and the state of the band; False if Q's range does not suit (then
        float64 rows only). Q↑ itself is built on first use (:meth:`_q32`)."""
        K = self.fold_every
        if K < 1 or K & (K - 1) or K > 1 << 20:
            raise ValueError("fold_every must be a power of 2 up to 2^20")
        qmax = max(float(Q.max()), -float(Q.min()))
        if not (2.0**-60 <= qmax <= 2.0**60):  # also NaN; tiny or huge Q: float64 only
            return False
        # h = 2^e with qmax <= 2^ex (frexp), e = ex + log2 K + 1 − 24: |Q↑/h| <= 2^23/K
        self.h = 2.0 ** (math.frexp(qmax)[1] + K.bit_length() - 1 + 1 - 24)
        self.qmax, self.qlo = qmax, self.h / 2  # |Q − Q↑| <= h/2 (rounding to nearest)
        self.Q32 = None
        self.ones32 = np.ones(K, dtype=np.float32)
        self.n = np.zeros(Q.shape[0])  # n_j: accepted steps on j folded so far (with β, D)
        self.n_acc = 0  # accepted steps in all (N)
        self.p_acc = 0  # accepted steps since the last resync (P)
        self.p32 = 0  # ... of which added as rows of Q↑ (P↑)
        self.e_sync = 0.0  # the bound of the last resync's rounding
        self._counted = (None, 0, self.n)  # _counts' last answer: (chunk marks, upto, n)
        return True

    def _q32(self):
        """Q↑ = h·rint(Q/h) in float32 (integers below 2^24 times h: exact)."""
        if self.Q32 is None:
            Q, h = self.Q, self.h
            Q32 = np.empty(Q.shape, dtype=np.float32)
            for a in range(0, Q.shape[0], 64):  # by blocks of rows: small temporaries
                block = Q[a : a + 64] * (1.0 / h)  # exact scaling by a power of 2
                np.rint(block, out=block)
                Q32[a : a + 64] = block
            Q32 *= np.float32(h)  # exact: a power of 2 on integers below 2^24
            self.Q32 = Q32
        return self.Q32

    def _band(self, nw, s_max, f32rows):
        """E: a bound on |g_i − Σ_a Q_{a i}| (a over the accepted steps added to g) and
        on the roundings of the tests, for every i over the next ``nw`` steps
        (s(t) <= s_max; float32 rows if ``f32rows``).

        With N accepted steps in all, P since the last resync and P↑ of them added as
        rows of Q↑, each counted at the window's end (``nw`` more if they may grow),
        u = 2⁻⁵³ and G_max = ((N + 2) q_max + e_sync + P↑ q↓)/(1 − 2 u P) >= |g_i|,
        |G_i| (sums of at most N entries of Q, plus the error below):

        * a row of Q↑ instead of Q: q↓ each (P↑ q↓);
        * each accepted step causes at most one rounded float64 addition into g (a
          float64 row, or its share of one addition of K rows of Q↑): u G_max each;
        * the resync g = Qᵀ n, a float64 dot product of length m per entry:
          e_sync = γ_m N q_max, γ_m = m u/(1 − m u) (any order, with or without FMA);
        * the tests form g_i ± b with the rows waiting (b <= K q_max): u (G_max + K q_max),
          twice.

        λ s ± E are formed in float64 (within 2 u λ s of the exact values): 4 u λ s_max
        more, and a factor 1 + 2⁻⁴⁰ for the rounding of E itself, keep the decisions by
        the rounded bounds rigorous.
        """
        u = 2.0**-53
        N, P = self.n_acc + nw, self.p_acc + nw
        P32 = self.p32 + (nw if f32rows else 0)
        gmax = ((N + 2) * self.qmax + self.e_sync + P32 * self.qlo) / (1 - 2 * u * P)
        pend = self.fold_every * self.qmax if f32rows else 0.0  # :meth:`_steps32`'s b
        E = self.e_sync + P32 * self.qlo + 2 * u * P * gmax + 2 * u * (gmax + pend)
        return (E + 4 * u * self.lam * s_max) * (1 + 2.0**-40) + 2.0**-1000

    def _resync(self, n_now):
        """g = Qᵀ n in float64 (no rows waiting): the band restarts from its rounding."""
        self.g[:] = n_now @ self.Q
        m = n_now.shape[0]
        u = 2.0**-53
        self.e_sync = (m * u / (1 - m * u)) * self.n_acc * self.qmax
        self.p_acc = self.p32 = 0

    def _counts(self, I, fl, upto):
        """n after the first ``upto`` steps of the chunk I (their marks in ``fl``); the
        marks counted by the last call on the same chunk are not counted again."""
        self.flush()  # the steps accepted before the chunk, in order (β, D, n)
        marks, done, n_now = self._counted
        if marks is not fl or done > upto or done == 0:
            done, n_now = 0, self.n
        pos = np.flatnonzero(np.frombuffer(fl, dtype=np.uint8, count=upto)[done:])
        if pos.shape[0]:
            n_now = n_now + np.bincount(I[pos + done], minlength=n_now.shape[0])
        self._counted = (fl, upto, n_now)
        return n_now

    def _exact_g(self, i, n_now):
        """G_i = Σ_j n_j Q_{j i}: Σ_j n_j Q↑_{j i} is exact (multiples of h below 2^53 h:
        n_j <= T <= 10⁸ < 2^27, |Q↑/h| <= 2^23/K), Σ_j n_j (Q − Q↑)_{j i} is tiny and
        within γ_m Σ_j n_j q↓ of its value; one rounding adds them."""
        col, h = self.Q[:, i], self.h
        hi = np.rint(col * (1.0 / h)) * h  # Q↑[:, i], as :meth:`_q32` (exact)
        lo = col - hi  # exact (Sterbenz: Q↑ is 0 or within a factor 2 of Q)
        return float(n_now @ hi) + float(n_now @ lo)

    def _fires_exactly(self, i, I, fl, upto, s):
        """The test of a step inside the band, by G_i itself: G_i < λ s, with n counted
        after the first ``upto`` steps of the chunk I (:meth:`_counts`)."""
        return self._exact_g(i, self._counts(I, fl, upto)) < self.lam * s

    def _prepare(self, I, fl, start, nw, s_max, f32rows):
        """Before a window of ``nw`` steps at ``start`` of the chunk I (s(t) <= s_max;
        with float32 rows if ``f32rows``): resync when P↑ would pass ``resync_every``;
        return the band E."""
        if f32rows and self.p32 + nw > self.resync_every:
            self._resync(self._counts(I, fl, start))
        return self._band(nw, s_max, f32rows)

    def _decide(self, i, t):
        """One step's test by G_i itself (the recorded and the dense steps): G_i < λ s(t);
        returns it and the margin G_i/(λ s(t))."""
        s = t - self.shift
        if s <= 0:
            return True, 0.0  # α(1) = 0 under "pegasos"
        self.flush()
        margin = self._exact_g(i, self.n) / (self.lam * s)
        return margin < 1.0, margin

    # -- the engine's interface ------------------------------------------------------------
    def recorded_step(self, i, t):
        if self.f32:
            fired, margin = self._decide(i, t)
        else:
            s = t - self.shift
            margin = float(self.g[i]) / (self.lam * s) if s > 0 else 0.0
            fired = margin < 1.0
        if fired:
            self.accept(i, t, None)
            self.flush()
        return self.step_record(i, t, margin, float(self.beta[i]))

    def quick_step(self, i, t):
        if self.f32:
            fired = self._decide(i, t)[0]
        else:
            fired = bool(self.g[i] < self.lam * (t - self.shift))
        if fired:
            self.accept(i, t, None)
        return fired

    def chunk_test(self, I, t):
        g, Q, lam = self.g, self.Q, self.lam
        take = g.take
        s0 = t - self.shift
        few, min_chunk = self.few, self.min_chunk
        f32 = self.f32
        W = self._window
        B = I.shape[0]
        fl = bytearray(B)  # fl[k] = 1: step t + k fired (folded into β and D at the end)
        flags = memoryview(fl)
        gv = memoryview(g)  # g as Python floats (a memoryview follows the updates in place)
        start = 0
        while start < B:
            if W <= self.step_below:
                # many steps fire: one step at a time in Python is cheaper than re-scanning
                # the window after each (the same test on the same g, so the same decisions)
                stop = min(B, start + max(W, self.step_window))
                # λ s(t) for the window's steps, as Python floats (the same products)
                thr = lam * np.arange(s0 + start, s0 + stop, dtype=float)
                marks = flags[start:stop]  # a view: marks[k] is fl[start + k]
                if not f32:
                    self._steps64(I[start:stop].tolist(), thr.tolist(), marks, gv)
                elif self._busy * self.f32_above >= 1:
                    self._steps32(I, fl, start, stop, thr, marks, s0)
                else:
                    self._steps64_band(I, fl, start, stop, thr, marks, s0)
                fired = fl.count(1, start, stop)
                self._busy = fired / (stop - start)
            else:
                stop = min(B, start + W)
                Iw = I[start:stop]
                off, fired, nw = 0, 0, stop - start
                # y_i g_i < λ s(t)  ⇔  y_i Σ_j α_j(t) K_ji < 1   (t >= 2 here, so s(t) > 0)
                thresh = lam * np.arange(s0 + start, s0 + stop, dtype=float)
                if f32:  # float64 rows; g_i < λ s(t) + E: fired, or in the band ±E
                    E = self._prepare(I, fl, start, nw, s0 + stop, False)
                    thresh += E
                    s1 = s0 + start
                while off < nw:
                    mask = take(Iw[off:]) < thresh[off:]
                    p = int(mask.argmax())
                    if not mask[p]:
                        break
                    pos = off + p
                    i = int(Iw[pos])
                    off = pos + 1
                    if f32 and not (
                        gv[i] < lam * (s1 + pos) - E
                        or self._fires_exactly(i, I, fl, start + pos, s1 + pos)
                    ):
                        continue  # in the band, and G_i >= λ s(t): no update
                    g += Q[i]  # the update of :meth:`accept`, in place
                    fl[start + pos] = 1
                    fired += 1
                if f32:
                    self.n_acc += fired
                    self.p_acc += fired
            # busy: more than `few` of every `min_chunk` steps fired
            W = min_chunk if fired * min_chunk > few * (stop - start) else min(2 * W, 1 << 16)
            start = stop
        self._window = W
        pos = np.flatnonzero(np.frombuffer(fl, dtype=np.uint8))
        if pos.shape[0]:
            self.flush()  # the steps accepted before this chunk's, in order
            self.fold(I[pos], harmonic_array(pos + s0))
        return (lambda off: _NOTHING_LEFT), None

    def _steps64(self, Iw, thr, marks, gv):
        """A window's steps one at a time: g_i < λ s(t) (``thr``), float64 rows."""
        g, rows = self.g, self._rows
        for k, i in enumerate(Iw):
            if gv[i] < thr[k]:
                g += rows[i]
                marks[k] = 1

    def _steps64_band(self, I, fl, start, stop, thr, marks, s0):
        """The steps start..stop−1 of the chunk I one at a time, float64 rows each added at
        once (cheaper than :meth:`_steps32` when few steps fire): g_i against λ s(t) ± E,
        in the band by G_i itself."""
        nw = stop - start
        E = self._prepare(I, fl, start, nw, s0 + stop, False)
        thr += E
        hi = thr.tolist()
        E2 = 2 * E  # (λ s + E) − 2E: within 2 u λ s of λ s − E (the band's slack)
        g, rows = self.g, self._rows
        gv = memoryview(g)
        for k, i in enumerate(I[start:stop].tolist()):
            v = gv[i]
            if v < hi[k] and (
                v < hi[k] - E2 or self._fires_exactly(i, I, fl, start + k, s0 + start + k)
            ):
                g += rows[i]
                marks[k] = 1
        fired = fl.count(1, start, stop)
        self.n_acc += fired
        self.p_acc += fired

    def _steps32(self, I, fl, start, stop, thr, marks, s0):
        """The steps start..stop−1 of the chunk I one at a time, with the float32 rows.

        The rows of the accepted steps wait in ``pend`` (at most K = ``fold_every``) and
        are added to g together, g += Σ_{a ∈ pend} Q↑[a] (one exact float32 product, one
        rounded addition: a fold). Meanwhile |G_i − (v + Σ_{a ∈ pend} Q_{a i})| <= E with
        v = g_i, and |Σ_{a ∈ pend} Q_{a i}| <= |pend| q_max =: b: a step with v + b below
        λ s(t) − E fires, one with v − b at or above λ s(t) + E does not; any other folds
        the pending rows first and is tested on v = g_i against λ s(t) ± E, in the band by
        G_i itself (the class docstring).
        """
        nw = stop - start
        E = self._prepare(I, fl, start, nw, s0 + stop, True)
        lo, hi = (thr - E).tolist(), (thr + E).tolist()
        g, Q32, ones, K = self.g, self._q32(), self.ones32, self.fold_every
        take = Q32.take
        gv = memoryview(g)
        qm = self.qmax * (1 + 2.0**-30)  # b = |pend| q_max, kept as a sum of these (upward)
        full = (K - 0.5) * qm
        pend, b = [], 0.0
        for k, i in enumerate(I[start:stop].tolist()):
            v = gv[i]
            if v - b >= hi[k]:
                continue
            if v + b < lo[k]:
                pend.append(i)
                marks[k] = 1
                b += qm
                if b > full:  # K rows: fold
                    g += ones @ take(pend, axis=0)
                    pend, b = [], 0.0
            else:  # not decided with the rows pending: fold them, test again
                if pend:
                    g += ones[: len(pend)] @ take(pend, axis=0)
                    pend, b = [], 0.0
                    v = gv[i]
                if v < lo[k] or (
                    v < hi[k] and self._fires_exactly(i, I, fl, start + k, s0 + start + k)
                ):
                    pend.append(i)
                    marks[k] = 1
                    b = qm
        if pend:
            g += ones[: len(pend)] @ take(pend, axis=0)
        fired = fl.count(1, start, stop)
        self.n_acc += fired
        self.p_acc += fired
        self.p32 += fired

    def accept(self, i, t, extra):
        self.g += self.Q[i]  # float64 (one rounded addition per entry)
        self.queue_i.append(i)
        self.queue_t.append(t)
        if self.f32:
            self.n_acc += 1
            self.p_acc += 1

    def fold(self, ai, H):
        """β_j += c_j y_j and D_j += c_j y_j H(t_u) for the queued steps (n_j += 1)."""
        steps = self.cy[ai]
        np.add.at(self.beta, ai, steps)
        np.add.at(self.D, ai, steps * H)
        if self.f32:
            np.add.at(self.n, ai, 1.0)

    def snapshot(self, t):
        self.flush()
        if self.averaging == "last":
            level = self.lam * (t + 1 - self.shift)
            coef = self.beta / level
            if self.f32:  # K α = K β/(λ s), sums first, as the textbook engine
                f = self.kmatvec(self.beta) / level
            else:
                f = self.y * self.g / level  # K α = y ∘ g/(λ s)
        else:
            coef = (self.beta * harmonic(t - self.shift) - self.D) / (self.lam * t)
            sv = np.flatnonzero(coef)
            if isinstance(self.Q, np.ndarray) and 2 * sv.shape[0] <= coef.shape[0]:
                # K ᾱ = y ∘ (Qᵀ (ᾱ / cy)) over the support only: its rows, not all of Q
                f = self.y * ((coef[sv] / self.cy[sv]) @ self.Q[sv])
            else:
                f = self.kmatvec(coef)
        self.on_snapshot(t, coef, f, self.beta)
