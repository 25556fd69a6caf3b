"""The puzzle service: an HTTP API and a web page (optional extra: ``pip install '.[service]'``)."""
