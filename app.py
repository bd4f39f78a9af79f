"""SVM Lab: the entry point, st.navigation over the pages in pages/ (svmlab/ui/router.py)."""

from svmlab.ui import router

router.run()
