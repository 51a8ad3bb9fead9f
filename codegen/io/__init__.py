"""Files, streaming, parallel and Dask validation over generated codec modules."""
