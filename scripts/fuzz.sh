#!/usr/bin/env bash
# Long fuzz runs over every parser of user input (src/fuzz.rs; the driver is tests/integration/fuzz.rs, which
# the test command runs for 3,000 mutations per target).
#
#   scripts/fuzz.sh [EXECUTIONS] [TARGET…]    default: 10,000,000 per target, every target
#
# Each target runs in chunks of up to 1,000,000 mutations, each chunk with its own seed (so the run
# is reproducible chunk by chunk, and a hang or an allocation abort, which ends the process, loses
# one chunk), as many chunks at a time as there are cores (LINGUALENS_FUZZ_JOBS to choose); the
# executions, seconds and failing chunks per target are printed at the end. A failing input is
# saved under $LINGUALENS_CACHE/target/tmp/fuzz-failures/, named by target and seed.
set -Eeuo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
goal="${1:-10000000}"
[ $# -gt 0 ] && shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(sed -n 's/^    ("\([a-z_]*\)", [a-z_]*),$/\1/p' src/fuzz.rs)
fi
[ ${#targets[@]} -gt 0 ] || { echo "error: no fuzz targets found in src/fuzz.rs" >&2; exit 1; }
chunk=1000000
jobs="${LINGUALENS_FUZZ_JOBS:-$(nproc)}"

# The driver is one test of the integration-test binary (tests/integration/main.rs).
step "compiling the fuzz driver (cargo test --release --test integration)"
cargo test --release --test integration --no-run
driver="$(cargo test --release --test integration --no-run 2>&1 | sed -n 's/.*Executable tests\/integration\/main.rs (\(.*\))$/\1/p')"
[ -x "$driver" ] || { echo "error: cannot find the integration tests' executable" >&2; exit 1; }
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

# One chunk: its output and exit status in $logs/<target>-<seed>.{log,status}.
run_chunk() {
    local target="$1" seed="$2" n="$3" status=0
    LINGUALENS_FUZZ_TARGET="$target" LINGUALENS_FUZZ_ITERATIONS="$n" LINGUALENS_FUZZ_SEED="$seed" \
        "$driver" fuzz::every_parser_survives_mutated_input --exact --nocapture >"$logs/$target-$seed.log" 2>&1 || status=$?
    echo "$status" >"$logs/$target-$seed.status"
}

declare -A executions=() seconds=() failures=()
for target in "${targets[@]}"; do
    step "fuzzing $target: $goal executions, $jobs chunks at a time"
    started=$SECONDS seeds=$(( (goal + chunk - 1) / chunk ))
    for seed in $(seq 1 "$seeds"); do
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
        n=$(( goal - (seed - 1) * chunk < chunk ? goal - (seed - 1) * chunk : chunk ))
        run_chunk "$target" "$seed" "$n" &
    done
    wait
    ran=0 failed=0
    for seed in $(seq 1 "$seeds"); do
        log="$logs/$target-$seed.log"
        count="$(sed -n "s/^fuzz $target: \([0-9]*\) executions.*/\1/p" "$log")"
        ran=$((ran + ${count:-0}))
        if [ "$(cat "$logs/$target-$seed.status")" != 0 ]; then
            failed=$((failed + 1))
            echo "chunk with seed $seed failed (status $(cat "$logs/$target-$seed.status")):"
            grep -E "FUZZ|panicked|saved at|memory allocation" "$log" | head -20 || tail -20 "$log"
        fi
    done
    echo "  $target: $ran executions in $((SECONDS - started)) s"
    executions[$target]=$ran seconds[$target]=$((SECONDS - started)) failures[$target]=$failed
done

print_phases
printf '\n==> fuzz results\n'
for target in "${targets[@]}"; do
    printf '  %-16s %12d executions %8d s %4d failing chunks\n' "$target" "${executions[$target]}" "${seconds[$target]}" "${failures[$target]}"
done
for target in "${targets[@]}"; do [ "${failures[$target]}" -eq 0 ] || exit 1; done
