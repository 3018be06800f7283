#!/bin/sh
# Decomposition test (issue 4): the same script under mpirun -np 1, 2 and 4,
# with slabs and general 3D splits, must write bitwise the same output (fields,
# mask, times, probes) as one process without MPI.
#   sh tests/mpi_decomp.sh CARDIAC [BACKEND [nccl|peer]]
# With nccl (GPUs): the ranks exchange through NCCL even where they share a
# GPU; each rank poses to NCCL as a host of its own (NCCL refuses two ranks on
# one GPU of a host), so NCCL's socket transport carries the faces.
# With peer (GPUs): the copy engines write the faces into the neighbours'
# memory (CUDA IPC) wherever the split allows it (slabs along one axis whose
# faces are runs of values), also where ranks share a GPU; each ok line says
# which way the run took. (On GPUs of their own the ranks take that way by
# default.)
bin=$1
backend=${2:-cpu}
exchange=${3:-}
dir=${TMPDIR:-/tmp}/cardiac_mpi_$$
mkdir -p "$dir"
trap 'rm -rf "$dir"' EXIT
mpibin=$bin
[ "$exchange" = peer ] && export CARDIAC_EXCHANGE=peer
if [ "$exchange" = nccl ]; then
  export CARDIAC_EXCHANGE=nccl NCCL_SOCKET_IFNAME=lo
  mpibin=$dir/rank_as_host.sh
  printf '#!/bin/sh\nNCCL_HOSTID=cardiac-rank-$OMPI_COMM_WORLD_RANK exec "%s" "$@"\n' "$bin" > "$mpibin"
  chmod +x "$mpibin"
fi
if ! command -v mpirun > /dev/null; then echo "mpirun not found (Debian: openmpi-bin)"; exit 1; fi
# root in containers and CI; more ranks than cores; shared memory only
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
script=$(dirname "$0")/mpi_case.lua
same=$(dirname "$0")/h5same.lua
status=0
run() {  # np dim decomp [stencil [layout [full]]]
  np=$1; dim=$2; split=$3; order=${4:-2}; layout=${5:-auto}; full=${6:-}
  case="o$order-$layout$full"
  out="$dir/np$np-$dim-$(echo "$split" | tr , x)-$case.h5"
  if [ "$np" = 0 ]; then "$bin" "$script" "$out" "$dim" "$split" "$backend" "$order" "$layout" $full > "$out.log" 2>&1
  else mpirun -np "$np" "$mpibin" "$script" "$out" "$dim" "$split" "$backend" "$order" "$layout" $full > "$out.log" 2>&1; fi
  rc=$?
  [ "$layout$full" != auto ] && order="$order layout=$layout $full"
  if [ $rc != 0 ]; then echo "FAIL np=$np ${dim}D decomp=$split stencil=$order: exit $rc"; cat "$out.log"; status=1; return; fi
  if [ "$exchange" = nccl ] && [ "$np" -gt 1 ] && ! grep -q "halo exchange: NCCL" "$out.log"; then
    echo "FAIL np=$np ${dim}D decomp=$split stencil=$order: the exchange is not NCCL's:"; cat "$out.log"; status=1; return
  fi
  ref="$dir/np0-$dim-auto-$case.h5"
  [ "$np" = 0 ] && { echo "reference ${dim}D stencil $order: $(grep '^ranks' "$out.log")"; return; }
  if ! "$bin" "$same" "$ref" "$out" /fields/U /fields/v /mesh/mask /time /step /probes/line/U /probes/line/v \
       /probes/line/time /probes/line/cells > "$out.diff" 2>&1; then
    echo "FAIL np=$np ${dim}D decomp=$split stencil=$order: $(cat "$out.diff")"; status=1; return
  fi
  if ! "$bin" "$same" "$ref.ck.h5" "$out.ck.h5" /state/U /state/v /mesh/mask /params/sets /params/label > "$out.diff" 2>&1 ||
     ! "$bin" "$same" "$ref.maps.h5" "$out.maps.h5" /maps/first /maps/last /maps/count > "$out.diff" 2>&1; then
    echo "FAIL np=$np ${dim}D decomp=$split stencil=$order: checkpoint or maps differ: $(cat "$out.diff")"; status=1; return
  fi
  if ! grep -q "restored diff 0$" "$out.log"; then
    echo "FAIL np=$np ${dim}D decomp=$split stencil=$order: a restored run differs:"; cat "$out.log"; status=1; return
  fi
  # (the layout may differ: on one GPU large fp32 sheets default to tblock,
  # which does not run decomposed; under mpirun they run naive, to the same
  # values)
  if [ "$(grep '^ranks' "$out.log" | sed 's/ranks [0-9]*  decomp [^ ]*  layout [^ ]* [^ ]*//')" != \
       "$(grep '^ranks' "$ref.log" | sed 's/ranks [0-9]*  decomp [^ ]*  layout [^ ]* [^ ]*//')" ]; then
    echo "FAIL np=$np ${dim}D decomp=$split stencil=$order: whole-grid values differ:"; cat "$out.log"; status=1; return
  fi
  way=$(grep -o "halo exchange: [a-zA-Z-]*" "$out.log" | head -1 | sed 's/halo exchange: //')
  echo "ok   np=$np ${dim}D decomp=$split stencil=$order: output, checkpoint, activation maps bitwise equal; restored run equal${way:+ ($way)}"
}
for dim in 3 2; do
  run 0 $dim auto
  run 1 $dim auto
  run 2 $dim auto
  if [ $dim = 3 ]; then
    run 2 3 2,1,1; run 2 3 1,2,1; run 4 3 auto; run 4 3 1,2,2; run 4 3 2,2,1; run 4 3 4,1,1
  else
    run 2 2 2,1; run 4 2 auto; run 4 2 2,2
  fi
done
# the 4th-order stencil: two ghost layers per face
run 0 3 auto 4; run 2 3 auto 4; run 4 3 1,2,2 4; run 0 2 auto 4; run 4 2 2,2 4
# GPUs: temporal blocking (tplane, K steps per kernel) with K ghost layers of
# every state, exchanged once per kernel; with a hole (masked kernel) and on
# the full box, where tplane is also the default under mpirun
if [ "$backend" = cuda ]; then
  for full in "" full; do
    run 0 3 auto 2 tplane $full; run 2 3 auto 2 tplane $full; run 4 3 auto 2 tplane $full
    run 2 3 2,1,1 2 tplane $full; run 4 3 1,2,2 2 tplane $full
  done
  run 0 3 auto 2 auto full; run 2 3 auto 2 auto full; run 4 3 2,1,2 2 auto full
  # wider than 256 cells: tiles 64 wide with an x halo, K = 3 (z slabs), and
  # tiles spanning a rank's half under a split along x
  run 0 3 auto 2 auto wide; run 2 3 auto 2 auto wide; run 4 3 2,2,1 2 auto wide
  # planes of 512 x 512 on z slabs: 81 tiles, whose face chunks fill a GPU's
  # first wave (their width planned by a model of the block scheduler)
  run 0 3 auto 2 auto broad; run 2 3 auto 2 auto broad; run 4 3 auto 2 auto broad
  # 30 planes on z slabs: on 4 ranks the middle ranks (7 and 8 planes) also
  # compute both their faces first, in one wave of blocks
  run 0 3 auto 2 auto deep; run 2 3 auto 2 auto deep; run 4 3 auto 2 auto deep
  for f in "$dir"/np[024]-3-*-o2-autofull.h5.log "$dir"/np[024]-3-*-o2-autowide.h5.log \
           "$dir"/np[024]-3-*-o2-autobroad.h5.log "$dir"/np[024]-3-*-o2-autodeep.h5.log; do
    grep -q "layout tplane 3" "$f" || { echo "FAIL the default layout of a full box is not tplane with K = 3: $f"; status=1; }
  done
fi
# blockDS: each rank stores the blocks of its part that hold tissue (ghost
# layers included) and exchanges V's ghost layers through the block map
run 0 3 auto 2 blocks; run 2 3 auto 2 blocks; run 4 3 1,2,2 2 blocks; run 4 3 2,2,1 2 blocks
run 0 2 auto 2 blocks; run 4 2 2,2 2 blocks
# a phase field: its values cross the rank borders with the ghost layers
run 0 3 auto phase; run 2 3 auto phase; run 4 3 1,2,2 phase; run 0 2 auto phase; run 4 2 2,2 phase
# stochastic calcium release units: channel counts independent of the split
"$bin" "$(dirname "$0")/mpi_calcium.lua" "$dir/ca0.h5" auto "$backend" > "$dir/ca0.log" 2>&1 || { echo "FAIL calcium reference:"; cat "$dir/ca0.log"; status=1; }
for c in "2 auto" "4 2,2" "3 3,1"; do
  set -- $c
  # restores the one-process run's checkpoint: the dyads cross decompositions
  mpirun -np "$1" "$mpibin" "$(dirname "$0")/mpi_calcium.lua" "$dir/ca$1.h5" "$2" "$backend" "$dir/ca0.h5.ck.h5" \
    > "$dir/ca$1.log" 2>&1
  if "$bin" "$same" "$dir/ca0.h5" "$dir/ca$1.h5" /fields/V /fields/cai /fields/ryr_open /fields/lcc_open \
       /probes/line/V /probes/line/ryr_open /probes/line/lcc_open > "$dir/ca$1.diff" 2>&1 &&
     "$bin" "$same" "$dir/ca0.h5.ck.h5" "$dir/ca$1.h5.ck.h5" /state/V /dyads/cads /dyads/cajsr /dyads/camkt \
       /dyads/ryr > "$dir/ca$1.diff" 2>&1 && grep -q "restored diff 0$" "$dir/ca$1.log" &&
     grep -q "restored diff 0$" "$dir/ca0.log"; then
    echo "ok   gaur_rudy np=$1 decomp=$2: voltage, calcium and channel counts bitwise equal to one process; checkpoint with dyads the same file, and one process's continues here bit for bit"
  else
    echo "FAIL gaur_rudy np=$1 decomp=$2: $(cat "$dir/ca$1.diff" "$dir/ca$1.log")"; status=1
  fi
done
# blockDS under mpirun on a cylinder shell: each rank stores its part's
# blocks, same values; on GPUs also O'Hara-Rudy (41 states) in fp64 and
# "mixed" (its kernel keeps the state in shared memory, the gates in float)
blocks_case() {  # model [precision]
  ref=$("$bin" "$(dirname "$0")/mpi_blocks.lua" auto "$backend" "$@" 2>&1 | grep '^blocks')
  for c in "2 1,1,2" "4 1,1,4" "4 2,2,1"; do
    set -- $c "$@"
    np=$1; split=$2; shift 2
    got=$(mpirun -np "$np" "$mpibin" "$(dirname "$0")/mpi_blocks.lua" "$split" "$backend" "$@" 2>&1 | grep '^blocks')
    if [ -n "$ref" ] && [ "$got" = "$ref" ] && echo "$got" | grep -q '^blocks 3x3x3 '; then
      echo "ok   blocks = 3, $*, under mpirun -np $np decomp=$split: every rank stores blocks, states and probe equal to one process's"
    else
      echo "FAIL blocks = 3, $*, under mpirun -np $np decomp=$split: '$got' against '$ref'"; status=1
    fi
  done
}
blocks_case karma
# multirate: ORd's slow states change at the same steps on every rank; in
# fp32g also stored in 16 bits
blocks_case ohara_rudy fp32 10
blocks_case ohara_rudy fp32g 10
# rate tables: each rank builds its own, from the same parameters
blocks_case ohara_rudy fp64 1 tables
# quiescent cells: each rank's sit out the same steps
blocks_case ohara_rudy fp32g 10 quiescent
if [ "$backend" = cuda ]; then
  blocks_case ohara_rudy fp64; blocks_case ohara_rudy mixed; blocks_case ohara_rudy fp32h 10
  # the layout named as well as the blocks
  out=$(mpirun -np 2 "$mpibin" -e 'local s = cardiac.simulation{mesh = cardiac.mesh{n = {8, 8, 8}, dx = 0.25},
    model = "karma", backend = "cuda", layout = "block", blocks = 2}
  s:run(1) print("layout " .. s.layout .. " blocks " .. s.blocks)' 2>&1)
  if [ "$(echo "$out" | grep -c '^layout block blocks 2x2x2$')" = 1 ]; then
    echo "ok   layout = \"block\" with blocks under mpirun -np 2"
  else
    echo "FAIL layout = \"block\" with blocks under mpirun -np 2:"; echo "$out"; status=1
  fi
  # a misspelt halo exchange stops the simulation's creation with its name
  out=$(CARDIAC_EXCHANGE=pear timeout 60 mpirun -np 2 "$bin" -e 'local s = cardiac.simulation{mesh = cardiac.mesh{
    n = {8, 8, 8}, dx = 0.25}, model = "karma", backend = "cuda"} print("created")' 2>&1); rc=$?
  if [ $rc != 0 ] && [ $rc != 124 ] && echo "$out" | grep -q 'CARDIAC_EXCHANGE=pear: unknown halo exchange' &&
     ! echo "$out" | grep -q '^created'; then
    echo "ok   CARDIAC_EXCHANGE=pear: an error naming it at the simulation's creation (exit $rc)"
  else
    echo "FAIL CARDIAC_EXCHANGE=pear: exit $rc"; echo "$out"; status=1
  fi
fi
# a job's split is the one mesh:decompose plans (tests/decomp_plan.lua):
# tissue in the first 8 of 30 planes, so that equal tissue and equal sizes
# cut differently; every rank holds the same table
plan='local m = cardiac.mesh{n = {20, 10, 30}, dx = 0.25, tissue = cardiac.slab{axis = "z", from = 0, to = 2}}
local function txt(d) return table.concat(d.cuts[3], " ") .. " | " .. table.concat(d.tissue, " ") end
for _, b in ipairs{"tissue", "cells"} do
  local s = cardiac.simulation{mesh = m, model = "karma", balance = b}
  local got, want = txt(s.decomp), txt(m:decompose(cardiac.ranks, {balance = b}))
  io.stderr:write(("rank %d %s %s\\n"):format(cardiac.rank, b, got == want and "same" or got .. " against " .. want))
  s:close()
end'
out=$(mpirun -np 4 "$mpibin" -e "$plan" 2>&1)
if [ "$(echo "$out" | grep -c ' same$')" = 8 ]; then
  echo "ok   sim.decomp under mpirun -np 4 is mesh:decompose's plan on every rank (balance tissue and cells)"
else
  echo "FAIL sim.decomp under mpirun -np 4:"; echo "$out"; status=1
fi
# a grid too thin to split (2 x 2 cells over 3 ranks): rank 0 computes it,
# the others join the collective calls; the same output, probe and
# checkpoint as one process
tiny='local m = cardiac.mesh{n = {2, 2}, dx = 0.25}
local s = cardiac.simulation{mesh = m, model = "karma", backend = B, stimuli = {cardiac.stimulus{
  region = cardiac.box{min = {0, 0}, max = {0.25, 0.25}}, amplitude = 8, duration = 1}}}
s:output{file = F, interval = 1, overwrite = true}
local p = s:probe{cells = {{1, 1}, {2, 2}}, vars = {"U"}, interval = 1}
s:run(5)
s:checkpoint(F .. ".ck.h5", {overwrite = true})
print(("tiny %s %s %.9g %.9g"):format(tostring(s.decomp.whole_on_rank0), table.concat(s.decomp.tissue, " "),
                                      s:get("U", 2, 2), p:data().U[2][5]))
s:close()'
"$bin" -e "F = '$dir/tiny1.h5' B = '$backend' $tiny" > "$dir/tiny1.log" 2>&1
out=$(mpirun -np 3 "$mpibin" -e "F = '$dir/tiny3.h5' B = '$backend' $tiny" 2>&1)
if echo "$out" | grep -q "^tiny true 4 0 0 $(grep '^tiny' "$dir/tiny1.log" | cut -d' ' -f4-)\$" &&
   echo "$out" | grep -q "too thin to split over 3 ranks" &&
   "$bin" "$same" "$dir/tiny1.h5" "$dir/tiny3.h5" /fields/U /time /probes/probe1/U > /dev/null 2>&1 &&
   "$bin" "$same" "$dir/tiny1.h5.ck.h5" "$dir/tiny3.h5.ck.h5" /state/U /state/v > /dev/null 2>&1; then
  echo "ok   a 2 x 2 grid under mpirun -np 3: rank 0 computes it, output, probe and checkpoint equal to one process's"
else
  echo "FAIL a 2 x 2 grid under mpirun -np 3:"; echo "$out"; cat "$dir/tiny1.log"; status=1
fi
# the REPL under mpirun: rank 0 reads the lines, every rank evaluates them,
# rank 0 prints (after the prompts that -i shows without a terminal)
out=$(printf 'x = 20 + cardiac.ranks\nprint(x, cardiac.rank)\n' | mpirun -np 2 "$bin" -i 2>&1 | sed 's/^\(> \)*//')
if [ "$(echo "$out" | grep -c '^22')" = 1 ] && echo "$out" | grep -q '^22[[:space:]]*0$'; then
  echo "ok   REPL under mpirun -np 2: lines reach every rank, rank 0 prints"
else
  echo "FAIL REPL under mpirun -np 2:"; echo "$out"; status=1
fi
# an error on one rank ends every rank, with its message (no hang)
err='local s = cardiac.simulation{mesh = cardiac.mesh{n = {40, 40}, dx = 0.25}, model = "karma"}
if cardiac.rank == 1 then error("only rank 1 fails") end
s:run(1e6)'
out=$(timeout 60 mpirun -np 2 "$mpibin" -e "$err" 2>&1)
rc=$?
if [ $rc != 0 ] && [ $rc != 124 ] && echo "$out" | grep -q "rank 1.*only rank 1 fails"; then
  echo "ok   an error on rank 1 ends the job (exit $rc) with its message"
else
  echo "FAIL an error on one rank: exit $rc"; echo "$out"; status=1
fi
# an error on every rank (here after output was written) ends the job cleanly:
# one message, and the output file closed with its frames
f="$dir/all_fail.h5"
err="local s = cardiac.simulation{mesh = cardiac.mesh{n = {40, 40}, dx = 0.25}, model = 'karma'}
s:output{file = '$f', every = 10}
s:step(50)
error('every rank fails')"
out=$(timeout 60 mpirun -np 2 "$mpibin" -e "$err" 2>&1)
rc=$?
frames=$("$bin" -e "local _, d = cardiac.h5read('$f', '/time') print(d[1])" 2>&1)
if [ $rc = 1 ] && [ "$(echo "$out" | grep -c 'every rank fails')" = 1 ] && [ "$frames" = 6 ] &&
   ! echo "$out" | grep -q MPI_ABORT; then
  echo "ok   an error on every rank ends the job cleanly (one message, output closed with 6 frames)"
else
  echo "FAIL an error on every rank: exit $rc, frames '$frames'"; echo "$out"; status=1
fi

# an ensemble under mpirun -np 2: its members spread over the ranks, each
# equal bit for bit to its simulation alone (tests/ensemble.lua)
out=$(timeout 300 mpirun -np 2 "$mpibin" "$(dirname "$0")/ensemble.lua" "$backend" 2>&1); rc=$?
if [ $rc = 0 ] && echo "$out" | grep -q ' passed, 0 failed'; then
  echo "ok   an ensemble under mpirun -np 2 ($(echo "$out" | grep ' passed, 0 failed'))"
else
  echo "FAIL an ensemble under mpirun -np 2: exit $rc"; echo "$out" | grep -v '^ok' | tail -20; status=1
fi

# os.exit under mpirun: 0 on every rank ends the job cleanly (it exited without
# MPI_Finalize and mpirun reported the job as failed); a failing status on one
# rank ends the whole job with it instead of leaving the others waiting
out=$(timeout 60 mpirun -np 2 "$mpibin" -e 'os.exit(0)' 2>&1); rc=$?
if [ $rc = 0 ]; then echo "ok   os.exit(0) on every rank: exit 0"
else echo "FAIL os.exit(0) on every rank: exit $rc"; echo "$out"; status=1; fi
out=$(timeout 60 mpirun -np 2 "$mpibin" -e 'if cardiac.rank == 1 then os.exit(3) end
local s = cardiac.simulation{mesh = cardiac.mesh{n = {16, 16}, dx = 0.25}, model = "karma", D = 0.1}
s:run(5)' 2>&1); rc=$?
if [ $rc = 3 ]; then echo "ok   os.exit(3) on one rank ends the job with status 3"
else echo "FAIL os.exit(3) on one rank: exit $rc (timeout: 124)"; echo "$out"; status=1; fi
exit $status
