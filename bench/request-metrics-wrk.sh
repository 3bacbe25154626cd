#!/bin/bash
# GET /metrics request figures on vs off under wrk (issue #17): the real server pinned to core 1, wrk to core 0,
# --request-metrics and --no-request-metrics alternately, 3 rounds. Run: npm run build && bench/request-metrics-wrk.sh
set -u
cd "$(dirname "$0")/.."
script=$(mktemp --suffix .lua)
cat > "$script" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"query":"{ queryItem(first: 2) { code } }"}'
LUA
for round in 1 2 3; do
  for mode in --request-metrics --no-request-metrics; do
    dir=$(mktemp -d)
    taskset -c 1 node dist/server/main.js --port 18977 --host 127.0.0.1 --data-dir $dir --log-level error $mode > /dev/null 2>&1 &
    pid=$!
    sleep 1.5
    curl -s -XPOST localhost:18977/admin/schema -d 'type Item { code: String! @id name: String }' > /dev/null
    curl -s -XPOST localhost:18977/graphql -H 'content-type: application/json' -d '{"query":"mutation { addItem(input: [{code: \"a\"}, {code: \"b\"}]) { numUids } }"}' > /dev/null
    taskset -c 0 wrk -t1 -c16 -d3s -s "$script" http://127.0.0.1:18977/graphql > /dev/null 2>&1
    rps=$(taskset -c 0 wrk -t1 -c16 -d8s -s "$script" http://127.0.0.1:18977/graphql | grep Requests/sec | awk '{print $2}')
    echo "round $round $mode $rps"
    kill $pid; wait $pid 2>/dev/null; rm -rf $dir
  done
done
rm -f "$script"
