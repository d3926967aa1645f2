#!/usr/bin/env python3
"""tools/serve-web.py DIR [PORT] - serves DIR (build/web) on 127.0.0.1,
for `make serve-web` and the browser test (tests/web.py). PORT 0, the
default here, takes a free one; the first line printed is the page's
address. A static server of the host's own would do as well, given the
two types the page needs (docs/web.md): JavaScript modules (.mjs) as
text/javascript and WebAssembly (.wasm) as application/wasm."""
import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript",
                      ".wasm": "application/wasm", ".css": "text/css",
                      ".elf": "application/octet-stream",
                      ".cpio": "application/octet-stream",
                      ".iso": "application/octet-stream",
                      ".txt": "text/plain; charset=utf-8"}

    def log_message(self, fmt, *args):
        pass                            # quiet: the tests read stdout


def main():
    root = sys.argv[1]
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", port), functools.partial(Handler, directory=root))
    print("http://127.0.0.1:%d/" % httpd.server_address[1], flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
