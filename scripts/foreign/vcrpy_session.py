"""Records one real vcrpy cassette (YAML): an MCP initialize POSTed with
urllib to a small local JSON-RPC endpoint, under vcr.use_cassette. The
sample of a file that `import` and `replay` refuse with the known-formats
line (vcrpy records HTTP, not MCP's own framing).

Usage: python vcrpy_session.py CASSETTE.yaml
"""

import json
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

import vcr


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        body = json.dumps({
            "jsonrpc": "2.0",
            "id": request["id"],
            "result": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "serverInfo": {"name": "vcrpy-sample", "version": "1.0.0"},
            },
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    server = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/mcp"
    initialize = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "vcrpy-sample-client", "version": "1.0.0"}},
    }
    with vcr.use_cassette(sys.argv[1], record_mode="all"):
        request = urllib.request.Request(
            url,
            data=json.dumps(initialize).encode(),
            headers={"Content-Type": "application/json", "Accept": "application/json"},
        )
        with urllib.request.urlopen(request) as response:
            print(response.read().decode())
    server.shutdown()


if __name__ == "__main__":
    main()
