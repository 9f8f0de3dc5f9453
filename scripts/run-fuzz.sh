#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time from its seed corpus.
set -euo pipefail
build=${1:-build/fuzz}
seconds=${2:-60}
here=$(cd "$(dirname "$0")/.." && pwd)
status=0
for target in http1response http1connection csv template scenario number jsonpath cookies breaker promtext logformat har trafficset collection curl scriptcheck snapshot httprequest controlrequest cpubudget lazyjson tlsrecords http2session runtimeorigins sse wsframes; do
    work=$(mktemp -d)
    cp -r "$here/tests/fuzz/corpus/$target/." "$work/"
    echo "fuzz_$target: ${seconds}s"
    if ! "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -print_final_stats=1 \
            -artifact_prefix="$build/fuzz_${target}-" "$work" 2>&1 | grep -E "stat::number_of_executed_units|ERROR|SUMMARY|crash-" ; then
        :
    fi
    if ls "$build/fuzz_${target}-"* >/dev/null 2>&1; then
        echo "fuzz_$target: FOUND a failing input: $(ls "$build/fuzz_${target}-"*)"
        status=1
    fi
    rm -rf "$work"
done
exit $status
