"""SVM Lab: the entry point, st.navigation over the pages in pages/ (svmlab/router.py)."""

from svmlab import router

router.run()
