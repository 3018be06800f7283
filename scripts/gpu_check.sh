#!/bin/sh
# Runs on the GPU machine from the repository root, with a build carried in
# .device/ (../shared/device/README.md): the GPU tests, then the benchmark.
#   sh scripts/gpu_check.sh [quick|full|tests]     logs and CSV under $OUT (default results/)
out=${OUT:-results}
mode=${1:-quick}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/.device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bin=.device/build/cardiac
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > "$out/gpu.txt" 2>&1
status=0
if [ "$mode" != "bench" ]; then
  if ! OMP_NUM_THREADS=16 $bin tests/gpu_agreement.lua > "$out/gpu_agreement.log" 2>&1; then
    status=1
    echo "GPU TESTS FAILED:"; tail -5 "$out/gpu_agreement.log"
  fi
  grep -E "FAIL|largest|passed" "$out/gpu_agreement.log" | tail -20
fi
if [ "$mode" != "tests" ]; then
  b=$mode; [ "$b" = bench ] && b=full
  $bin protocols/benchmark.lua "$b" "$out/benchmark.csv" > "$out/benchmark.log" 2>&1 || status=1
  tail -40 "$out/benchmark.log"
fi
exit $status
