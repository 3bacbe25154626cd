#!/bin/bash
# The request line (--log-requests) all vs none under wrk (issue #17): the real server, default flags otherwise, its log
# written to a file (JSON, async destination) as in production, pinned to core 1, wrk to core 0, alternately, 3 rounds.
# Run: npm run build && bench/request-log-wrk.sh
set -u
cd "$(dirname "$0")/.."
script=$(mktemp --suffix .lua)
cat > "$script" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"query":"{ queryItem(first: 2) { code } }"}'
LUA
for round in 1 2 3; do
  for mode in "--log-requests all" "--log-requests none"; do
    dir=$(mktemp -d)
    taskset -c 1 node dist/server/main.js --port 18983 --host 127.0.0.1 --data-dir $dir $mode > $dir.log 2>&1 &
    pid=$!
    sleep 1.5
    curl -s -XPOST localhost:18983/admin/schema -d 'type Item { code: String! @id name: String }' > /dev/null
    curl -s -XPOST localhost:18983/graphql -H 'content-type: application/json' -d '{"query":"mutation { addItem(input: [{code: \"a\"}, {code: \"b\"}]) { numUids } }"}' > /dev/null
    taskset -c 0 wrk -t1 -c16 -d3s -s "$script" http://127.0.0.1:18983/graphql > /dev/null 2>&1
    rps=$(taskset -c 0 wrk -t1 -c16 -d8s -s "$script" http://127.0.0.1:18983/graphql | grep Requests/sec | awk '{print $2}')
    echo "round $round $mode $rps"
    kill $pid; wait $pid 2>/dev/null; rm -rf $dir $dir.log
  done
done
rm -f "$script"
