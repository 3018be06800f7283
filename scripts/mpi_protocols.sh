#!/bin/sh
# Every protocol under mpirun, at sizes that take seconds (issue 4: "mpirun
# -np N runs every protocol unchanged"): exit status and last line of each,
# on the backend the protocol picks (the GPU where there is one, ranks
# sharing it when there are fewer GPUs than ranks).
#   [TIMEOUT=seconds] sh scripts/mpi_protocols.sh [CARDIAC] [NP] [OUTDIR]
bin=${1:-build/cardiac}
np=${2:-2}
out=${3:-${TMPDIR:-/tmp}/cardiac_mpi_protocols}
mkdir -p "$out"
# absolute paths: each protocol runs in $out, where its results/ go
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
out=$(cd "$out" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
export OMPI_MCA_rmaps_base_oversubscribe=1
status=0
# protocol and its small arguments ("-" for none)
while read -r p args; do
  [ -z "$p" ] && continue
  [ "$args" = "-" ] && args=""
  log="$out/$p.log"
  # shellcheck disable=SC2086
  (cd "$out" && timeout "${TIMEOUT:-300}" mpirun -np "$np" "$bin" "$OLDPWD/protocols/$p.lua" $args < /dev/null) > "$log" 2>&1
  rc=$?
  [ $rc = 0 ] || status=1
  printf "%-28s exit %-3s %s\n" "$p" "$rc" "$(tr "\r" "\n" < "$log" | grep -av "^\s*$" | tail -1 | cut -c1-110)"
done <<LIST
quickstart -
activation_cost 48 40
interventions_cost 48 40
tips_cost 48 150
models_256 24 $out/models.csv
benchmark quick $out/bench.csv
block_size 20 $out/bs.csv 0.2
blockds_fraction 0.2 $out/bf.csv
decomp_balance 0.2 $out/db.csv mixed 10
ord_heart 0.2 mixed 10 - 2
ord_precision 0.2 5 $out/op.csv
ord_half_gates 20 5 all
steer_cost 1
ensemble_speed members=4 n=32 ms=20 repeat=1
cv_resolution ohara_rudy 0.2 0.5
ischaemia 5.4,12 auto
tplane_shapes 256
calcium_benchmark 2 $out/cb.csv
calcium_scaling $out/cs.csv 2
ryr_opening 10
scaling $out/sc.csv auto strong256
repro_thesis_karma $out/rk.csv
repro_thesis_spiral $out/rs.csv 64
repro_thesis_heart $out/rh.csv fraction
repro_thesis_heart_slice $out/rhs.csv - auto 0.5
repro_unat_aliev_panfilov $out/ru.csv
LIST
exit $status
