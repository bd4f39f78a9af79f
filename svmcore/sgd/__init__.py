"""The stochastic (sub-)gradient family, one module per algorithm of the texts.

============================  =================================================
module                        public function (lazy export of :mod:`svmcore`)
============================  =================================================
``perceptron``                :func:`perceptron` (seed 002 starts from it)
``pegasos``                   :func:`pegasos` (seed 002 Algorithm 1, SSBD §15.5)
``kernel_pegasos``            :func:`kernel_pegasos` (SSBD §16.3, seed 002 Alg. 2)
``multiclass_sgd``            :func:`multiclass_sgd` (SSBD §17.2, seed 001)
``multiclass_pegasos``        :func:`multiclass_pegasos` (seed 002 §2.3)
``kernel_multiclass_pegasos``  its ``kernel`` branch (:func:`kernel_step`)
``one_vs_all``                :func:`one_vs_all`, :func:`ambiguity_regions`
============================  =================================================

Each algorithm module opens with its text's box, then a plain ``step`` (the box's loop
body in the text's symbols), then the run. ``engine="textbook"`` loops the box one
iteration at a time in its scaled form (w = θ/(λ s(t)), α = β/(λ s(t)): ``theta_step``,
the kernel ``step``, ``beta_step``; the Perceptron's ``step`` itself); ``engine="fast"``
runs the same recursion through the one private engine (:mod:`svmcore.sgd._engine`).
Both compute every test as the data's sum first (:mod:`svmcore.sgd.common`, "The margin
test"), so they take the same decision on every step, exact ties included, and give the
same numbers (to 1e-12). Shared helpers are in
:mod:`svmcore.sgd.common` and :mod:`svmcore.sgd.multiclass_common` (Ψ, Δ, the
generalized hinge and the multiclass θ recursion).
"""
