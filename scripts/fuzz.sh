#!/usr/bin/env bash
# Long fuzz runs over every parser of user input (src/fuzz.rs; the driver is tests/fuzz.rs, which
# the test command runs for 3,000 mutations per target).
#
#   scripts/fuzz.sh [EXECUTIONS] [TARGET…]    default: 10,000,000 per target, every target
#
# Each target runs in chunks of up to 1,000,000 mutations, each chunk with its own seed (so the run
# is reproducible chunk by chunk, and a hang or an allocation abort, which ends the process, loses
# one chunk), and the executions, seconds and failures per target are printed at the end. A failing
# input is saved under $LINGUALENS_CACHE/target/tmp/fuzz-failures/ and named in the output.
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

step "compiling the fuzz driver (cargo test --release --test fuzz)"
cargo test --release --test fuzz --no-run

declare -A executions=() seconds=() failures=()
for target in "${targets[@]}"; do
    step "fuzzing $target: $goal executions"
    done_so_far=0 started=$SECONDS failed=0 seed=1
    while [ "$done_so_far" -lt "$goal" ]; do
        n=$(( goal - done_so_far < chunk ? goal - done_so_far : chunk ))
        log="$(mktemp)"
        status=0
        LINGUALENS_FUZZ_TARGET="$target" LINGUALENS_FUZZ_ITERATIONS="$n" LINGUALENS_FUZZ_SEED="$seed" \
            cargo test --release --test fuzz -q -- --nocapture >"$log" 2>&1 || status=$?
        ran="$(sed -n "s/^fuzz $target: \([0-9]*\) executions.*/\1/p" "$log")"
        if [ "$status" -ne 0 ]; then
            failed=$((failed + 1))
            echo "chunk with seed $seed failed (status $status):"
            grep -E "FUZZ|panicked|saved at|memory allocation" "$log" | head -20 || tail -20 "$log"
        fi
        done_so_far=$((done_so_far + ${ran:-$n}))
        echo "  $target: $done_so_far of $goal (seed $seed, $((SECONDS - started)) s)"
        rm -f "$log"
        seed=$((seed + 1))
    done
    executions[$target]=$done_so_far seconds[$target]=$((SECONDS - started)) failures[$target]=$failed
done

print_phases
printf '\n==> fuzz results\n'
for target in "${targets[@]}"; do
    printf '  %-16s %12d executions %8d s %4d failing chunks\n' "$target" "${executions[$target]}" "${seconds[$target]}" "${failures[$target]}"
done
for target in "${targets[@]}"; do [ "${failures[$target]}" -eq 0 ] || exit 1; done
