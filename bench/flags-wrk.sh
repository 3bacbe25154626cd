#!/bin/bash
# Two sets of server flags against each other under wrk: the real server (its log to a file, JSON through pino's
# async destination, as in production) pinned to core 1, wrk to core 0, the two alternately, 3 rounds of 8 s after 3 s
# of warm-up, on a small `queryItem` read. Issue #17's on/off costs:
#   npm run build && bench/flags-wrk.sh "--request-metrics" "--no-request-metrics"    # /metrics request figures
#   npm run build && bench/flags-wrk.sh "--log-requests all" "--log-requests none"    # the request log line
set -u
if [ $# -ne 2 ]; then echo 'usage: bench/flags-wrk.sh "<flags A>" "<flags B>"' >&2; exit 2; fi
cd "$(dirname "$0")/.."
script=$(mktemp --suffix .lua)
cat > "$script" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"query":"{ queryItem(first: 2) { code } }"}'
LUA
for round in 1 2 3; do
  for mode in "$1" "$2"; do
    dir=$(mktemp -d)
    # shellcheck disable=SC2086 # the flags are words
    taskset -c 1 node dist/server/main.js --port 18983 --host 127.0.0.1 --data-dir "$dir" $mode > "$dir.log" 2>&1 &
    pid=$!
    sleep 1.5
    curl -s -XPOST localhost:18983/admin/schema -d 'type Item { code: String! @id name: String }' > /dev/null
    curl -s -XPOST localhost:18983/graphql -H 'content-type: application/json' -d '{"query":"mutation { addItem(input: [{code: \"a\"}, {code: \"b\"}]) { numUids } }"}' > /dev/null
    taskset -c 0 wrk -t1 -c16 -d3s -s "$script" http://127.0.0.1:18983/graphql > /dev/null 2>&1
    rps=$(taskset -c 0 wrk -t1 -c16 -d8s -s "$script" http://127.0.0.1:18983/graphql | grep Requests/sec | awk '{print $2}')
    echo "round $round $mode $rps"
    kill $pid; wait $pid 2>/dev/null; rm -rf "$dir" "$dir.log"
  done
done
rm -f "$script"
