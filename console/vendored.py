"""The front-end files the console serves itself, at pinned versions, with the hashes the
pages' ``integrity`` attributes carry (nothing is fetched at run time, no build step).
``tests/console/test_vendored.py`` recomputes each hash from the file.

Sources: npm ``htmx.org@2.0.11`` (``dist/htmx.min.js``), ``@picocss/pico@2.1.1``
(``css/pico.min.css``).
"""

VENDORED = {
    "htmx": ("console/vendor/htmx-2.0.11.min.js",
             "sha384-2OatzQy1H+Zd/IIrjr1TcuDGqLXeHhbooAyJY1KdQMKnr4LZ22k31GBLdYKHmVjg"),
    "pico": ("console/vendor/pico-2.1.1.min.css",
             "sha384-L1dWfspMTHU/ApYnFiMz2QID/PlP1xCW9visvBdbEkOLkSSWsP6ZJWhPw6apiXxU"),
}
