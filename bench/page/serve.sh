# serve.sh — sourced by the bench/page scripts: builds ./serve into a
# scratch directory ($tmp, removed on exit with the server) and serves
# public/ on a free loopback port, whose address it leaves in $url.
tmp=$(mktemp -d)
trap 'kill $srv 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/serve" ./serve
"$tmp/serve" -addr 127.0.0.1:0 -dir public >"$tmp/serve.log" 2>&1 &
srv=$!
for _ in $(seq 50); do grep -q http "$tmp/serve.log" && break; sleep 0.1; done
url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$tmp/serve.log" | head -1)
