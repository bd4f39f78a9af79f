"""SVM Lab's app layer: figures (pure Plotly), the data canvas and the page widgets."""
