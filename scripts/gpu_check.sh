#!/bin/sh
# Runs on the GPU machine from the repository root, with a build carried in
# .device/ (`make device-bundle`): the GPU tests, then the benchmark.
#   sh scripts/gpu_check.sh [quick|full|tests|together]     logs and CSV under $OUT (default results/)
# "together" runs the three GPU test scripts at once on the same GPU: kernels
# of one process then wait behind the others', which exposes copies that a
# kernel can overtake (docs/gpu.md, "Agreement"); each must pass as alone.
out=${OUT:-results}
mode=${1:-quick}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/.device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bin=.device/build/cardiac
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > "$out/gpu.txt" 2>&1
status=0
if [ "$mode" = together ]; then
  for t in gpu_agreement gpu_maps gpu_calcium; do
    (OMP_NUM_THREADS=4 $bin tests/$t.lua > "$out/$t.log" 2>&1; echo "exit $?" >> "$out/$t.log") &
  done
  wait
  for t in gpu_agreement gpu_maps gpu_calcium; do
    grep -q "^exit 0$" "$out/$t.log" || status=1
    echo "$t (run together): $(grep -E 'passed' "$out/$t.log" | tail -1) $(tail -1 "$out/$t.log")"
    grep -E "^FAIL" "$out/$t.log" | head -5
  done
  exit $status
fi
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
