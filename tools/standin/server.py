#!/usr/bin/env python3
"""A stand-in for the hosts lingualens fetches from (GitHub's raw files, the Hugging Face Hub), for tests.

It serves a folder laid out as a mirror is (`ROOT/HOST/PATH`, what `LINGUALENS_MIRROR=URL` asks for as
`URL/HOST/PATH`), and answers the way those hosts do in the ways the app depends on:

- `Range: bytes=a-` / `bytes=a-b` (206 with `Content-Range`, 416 past the end), `ETag` and `If-Range`;
- CORS: `Access-Control-Allow-Origin: *` with the headers a page must read exposed, and preflights;
- the Hub's `resolve` URLs (`[/huggingface.co]/datasets/ID/resolve/REV/PATH`, also without the host,
  as `HF_ENDPOINT` asks for them) answered with a 302 to another path that serves the file, as the Hub
  redirects to its CDN; the tree API (`[/huggingface.co]/api/datasets/ID/tree/REV[/PATH][?recursive=1]`)
  as JSON listing `ROOT/huggingface.co/datasets/ID/` (Parquet files with their `lfs` sha256); the parquet conversion's branch
  (`resolve/refs%2Fconvert%2Fparquet/...`) from `ROOT/huggingface.co/datasets/ID/@refs/convert/parquet/`.

The tree API pages its answer as the Hub does where `--tree-page-size N` is given: N entries a page,
the next page named by a `Link: <URL&cursor=K>; rel="next"` header (the Hub's own URL, which a mirror
maps like any other), exposed to pages by CORS as the Hub exposes it.

Faults, to test what a user meets: `--truncate-once SUFFIX=N` (the first download of a path ending in
SUFFIX declares the whole length but sends N bytes and closes), `--no-cors PREFIX` (no CORS headers
under a path prefix). Every request is appended to `--log` as a JSON line (`path`, `range`, `status`).

Usage: server.py --root DIR [--mount URLPATH=DIR]... [--port-file FILE] [--log FILE] [faults]
"""
import argparse, hashlib, json, os, re, sys, threading, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

args = None
truncated = set()
lock = threading.Lock()

CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": "Content-Length, Content-Range, ETag, Accept-Ranges, Location, Link",
}


def resolve_file(path):
    """The local file for a request path (already percent-decoded), or None."""
    for prefix, folder in args.mount:
        if path.startswith(prefix + "/"):
            return safe_join(folder, path[len(prefix) + 1:])
    return safe_join(args.root, path.lstrip("/"))


def safe_join(folder, rest):
    if any(part == ".." for part in rest.split("/")):
        return None
    full = os.path.join(folder, rest)
    return full if os.path.isfile(full) else None


def hub_path(path):
    """`/huggingface.co/...` or, as HF_ENDPOINT asks, the path without the host: the Hub path."""
    return path[len("/huggingface.co"):] if path.startswith("/huggingface.co/") else path


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def log(self, status):
        if args.log:
            with lock, open(args.log, "a", encoding="utf-8") as f:
                f.write(json.dumps({"path": self.path, "range": self.headers.get("Range"), "status": status}) + "\n")

    def cors(self, path):
        if not any(path.startswith(p) for p in args.no_cors):
            for k, v in CORS.items():
                self.send_header(k, v)

    def reply(self, status, body=b"", headers=(), path="/"):
        self.send_response(status)
        self.cors(path)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.log(status)

    def do_OPTIONS(self):
        path = urllib.parse.urlsplit(self.path).path
        self.reply(204, headers=[("Access-Control-Allow-Methods", "GET, HEAD"), ("Access-Control-Allow-Headers", "Range, If-Range")], path=path)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        split = urllib.parse.urlsplit(self.path)
        path = urllib.parse.unquote(split.path)
        hub = hub_path(path)
        # A revision is one path segment, so a branch with slashes comes percent-encoded (the parquet
        # conversion's `refs%2Fconvert%2Fparquet`): these two are matched before decoding.
        raw_hub = hub_path(split.path)
        m = re.match(r"^/datasets/(?P<id>[^/]+/[^/]+)/resolve/(?P<rev>[^/]+)/(?P<file>.+)$", raw_hub)
        if m:
            # The Hub answers a resolve URL with a redirect to where the bytes are.
            target = "/_cdn/datasets/%s/%s/%s" % (m["id"], m["rev"], m["file"])
            return self.reply(302, headers=[("Location", target)], path=split.path)
        m = re.match(r"^/_cdn/datasets/(?P<id>[^/]+/[^/]+)/(?P<rev>[^/]+)/(?P<file>.+)$", split.path)
        if m:
            # Every revision is served from the one folder, but for the parquet conversion's branch,
            # which holds other files (`{config}/{split}/0000.parquet`) and lives under `@refs/convert/parquet/`.
            rev = urllib.parse.unquote(m["rev"])
            folder = os.path.join(args.root, "huggingface.co", "datasets", urllib.parse.unquote(m["id"]))
            if rev == "refs/convert/parquet":
                folder = os.path.join(folder, "@refs", "convert", "parquet")
            return self.send_file(safe_join(folder, urllib.parse.unquote(m["file"])), split.path)
        m = re.match(r"^/api/datasets/(?P<id>[^/]+/[^/]+)/tree/(?P<rev>[^/]+)(?:/(?P<sub>.*))?$", hub)
        if m:
            return self.tree(m["id"], (m["sub"] or "").strip("/"), split.query, path)
        self.send_file(resolve_file(path), path)

    def tree(self, dataset, sub, query, path):
        params = urllib.parse.parse_qs(query)
        recursive = params.get("recursive", [""])[0] in ("1", "true")
        base = os.path.join(args.root, "huggingface.co", "datasets", dataset)
        folder = os.path.join(base, sub)
        if not os.path.isdir(folder):
            return self.reply(404, json.dumps({"error": "Repository not found"}).encode(), [("Content-Type", "application/json")], path)
        entries = []
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = [d for d in dirnames if not d.startswith("@")]  # other revisions' files
            rel = os.path.relpath(dirpath, base).replace(os.sep, "/")
            rel = "" if rel == "." else rel + "/"
            for d in sorted(dirnames):
                entries.append({"type": "directory", "oid": "0" * 40, "size": 0, "path": rel + d})
            for name in sorted(filenames):
                full = os.path.join(dirpath, name)
                entry = {"type": "file", "oid": etag_of(full), "size": os.path.getsize(full), "path": rel + name}
                if name.endswith(".parquet"):
                    # The Hub keeps binary files in Git LFS: the listing gives their sha256 and size
                    # under `lfs` (and `size` is the pointer's).
                    entry["lfs"] = {"oid": sha256_of(full), "size": entry["size"], "pointerSize": 134}
                    entry["size"] = 134
                entries.append(entry)
            if not recursive:
                break
        headers = [("Content-Type", "application/json")]
        if args.tree_page_size:
            start = int(params.get("cursor", ["0"])[0])
            end = start + args.tree_page_size
            if end < len(entries):
                rest = [(k, v) for k, vs in params.items() if k != "cursor" for v in vs] + [("cursor", str(end))]
                url = "https://huggingface.co/api/datasets/%s/tree/%s?%s" % (
                    dataset, path.split("/tree/", 1)[1], urllib.parse.urlencode(rest))
                headers.append(("Link", '<%s>; rel="next"' % url))
            entries = entries[start:end]
        self.reply(200, json.dumps(entries).encode(), headers, path)

    def send_file(self, file, path):
        if file is None:
            return self.reply(404, b"Entry not found", [("Content-Type", "text/plain")], path)
        with open(file, "rb") as f:
            body = f.read()
        etag = '"%s"' % etag_of(file)
        n = len(body)
        first, last, status = 0, n - 1, 200
        wanted = self.headers.get("Range")
        if_range = self.headers.get("If-Range")
        m = re.match(r"^bytes=(\d+)-(\d*)$", wanted or "")
        if m and (if_range is None or if_range == etag):
            first = int(m[1])
            last = min(int(m[2]), n - 1) if m[2] else n - 1
            if first >= n:
                return self.reply(416, headers=[("Content-Range", "bytes */%d" % n)], path=path)
            status = 206
        part = body[first:last + 1]
        send = part
        with lock:
            for suffix, count in args.truncate_once:
                if path.endswith(suffix) and (suffix, path) not in truncated and self.command == "GET":
                    truncated.add((suffix, path))
                    send = part[:count]
        self.send_response(status)
        self.cors(path)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(part)))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", etag)
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (first, last, n))
        self.send_header("Connection", "close")
        self.end_headers()
        self.log(status)
        if self.command == "GET":
            try:
                self.wfile.write(send)
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass
        if len(send) < len(part):
            # A dropped connection in the middle of the body.
            self.close_connection = True
            self.connection.shutdown(2)


def sha256_of(file):
    h = hashlib.sha256()
    with open(file, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def etag_of(file):
    return sha256_of(file)[:40]


def main():
    global args
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root", required=True)
    p.add_argument("--mount", action="append", default=[], help="URLPATH=DIR: serve DIR at /URLPATH/")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--port-file")
    p.add_argument("--log")
    p.add_argument("--truncate-once", action="append", default=[], help="SUFFIX=N")
    p.add_argument("--no-cors", action="append", default=[], help="a path prefix answered without CORS headers")
    p.add_argument("--tree-page-size", type=int, default=0, help="entries per page of the tree API (0: one page)")
    args = p.parse_args()
    args.mount = [("/" + k.strip("/"), v) for k, v in (m.split("=", 1) for m in args.mount)]
    args.truncate_once = [(k, int(v)) for k, v in (t.rsplit("=", 1) for t in args.truncate_once)]
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(str(server.server_address[1]))
        os.replace(tmp, args.port_file)
    print("serving on http://127.0.0.1:%d/" % server.server_address[1], file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
