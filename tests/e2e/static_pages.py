"""A folder of static pages (the built site, a grades folder's review page) served from
127.0.0.1 on a free port, for the browser tests that open them over HTTP."""
from __future__ import annotations

import contextlib
import functools
import http.server
import threading


@contextlib.contextmanager
def served(folder):
    """Serve ``folder`` while the block runs; yields its address."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
