// How a tplane launch (cuda/kernels_tplane.cuh) divides the planes it writes
// along z into chunks, one per row of blocks (blockIdx.z): the launch's
// geometry, the chunk of a row, and the plans that choose the chunks, with
// and without faces to send first under mpirun (docs/mpi.md). Host code but
// for tplane_chunk_bounds, which the kernel calls too; compiled by g++ as
// well, so that tests/test_tplane_plan.cpp checks the plans on the CPU.
#ifndef CARDIAC_CUDA_TPLANE_PLAN_H
#define CARDIAC_CUDA_TPLANE_PLAN_H
#include <algorithm>
#include <array>
#include <map>
#include <utility>
#include <vector>
#include "qualifiers.h"

struct tplane_geom {
    int W, RP, TY;        // tile width and rows (cells), rows per pass of the threads
    int hx, hy;           // halo columns and rows each side (0 where one tile spans the axis)
    int cx, cy;           // core (written) columns and rows of a tile
    int zc;               // planes per block
    int zb, ze;           // planes written, [zb, ze): all, or a rank's owned planes (its ghost planes are
                          // the blocks' halo planes)
    int ox0, ox1, oy0, oy1;   // columns and rows written (a rank's owned ones under a split along x or y)
    // Faces first (launch_ctx.face_signal): the first nf rows of blocks along
    // z (low face, then high) each march the fw planes next to a shared face
    // and count them in sig; the main chunks after them share [mb, me), the
    // first `early` rows zc planes each, the later rows (which start when the
    // face blocks end) zl. Without faces: nf = 0, [mb, me) = [zb, ze), every
    // row zc planes.
    int nf, flo, fw, mb, me, early, zl;
    unsigned *sig;
    // Resting tissue (cuda/rest_region.cuh): the ring of boxes, or null; the
    // launch's number in it; whether it steps only the planes that can change
    // (else every plane, recording its box); the input's and the output's
    // plane stamps.
    int *rest;
    unsigned rest_seq;
    int rest_use;
    long long *stamp_in, *stamp_out;
};

// The planes [*lo, *hi) of the chunk of the blocks of row i along z.
CARDIAC_HD void tplane_chunk_bounds(const tplane_geom &g, int i, int *lo, int *hi)
{
    if (i < g.nf) {
        *lo = g.flo && i == 0 ? g.zb : g.ze - g.fw;
        *hi = *lo + g.fw;
        return;
    }
    const int j = i - g.nf;
    *lo = g.mb + (j < g.early ? j * g.zc : g.early * g.zc + (j - g.early) * g.zl);
    const int end = *lo + (j < g.early ? g.zc : g.zl);
    *hi = end < g.me ? end : g.me;
}

// The GPU's block scheduler modelled as a list schedule: `slots` blocks run at
// once, each row of `tiles` blocks (in the launch's block order) takes the
// slots that free first. A row is (blocks' iterations, face row or not).
// Returns the launch's end in iterations; *face_end: the last face block's.
// The slots are kept as groups of equal free time, so that a row costs a
// few map operations, not one a block.
inline long schedule_rows(const std::vector<std::pair<int, bool>> &rows, long tiles, long slots, long *face_end)
{
    std::map<long, long> free_at{{0, slots}};   // time -> slots free from then
    long end = 0;
    *face_end = 0;
    for (const auto &r : rows)
        for (long need = tiles; need > 0;) {   // a row may need more slots than are free at once
            const auto it = free_at.begin();
            const long t = it->first + r.first, k = std::min(need, it->second);
            end = std::max(end, t);
            if (r.second) *face_end = std::max(*face_end, t);
            need -= k;
            if ((it->second -= k) == 0) free_at.erase(it);
            free_at[t] += k;   // later than every time taken from (r.first > 0)
        }
    return end;
}

// Faces first where the face rows alone fill the GPU's first wave (grids
// wider than a tile): the face chunks' width fw (at least the K planes next
// to the face; wider, they leave fewer main planes) and the main chunks' zc,
// chosen by the schedule above for the earliest end of the launch whose face
// blocks end at least a sixth of it before, time for the copy engines to
// send the faces (one after the other on one stream; 512^3 on 4 ranks: 6.3 MB
// each, in a launch of about 370 us; measured at 256^3, a 1.5 MB face's copy
// took 12 us and the whole path from count to the neighbour's start about
// 45 us, docs/gpu-notebook.md item 25).
// Searched: fw up to 96 planes, up to 32 rows of main chunks. The plan of a
// shape is kept (a launch of the same shape plans nothing again).
inline int plan_wide_faces(tplane_geom &g, long tiles, long slots, int K)
{
    using key_t = std::array<long, 7>;
    static std::map<key_t, std::array<int, 3>> kept;
    const int nzw = g.ze - g.zb;
    const key_t key = {tiles, slots, nzw, g.nf, g.flo, g.fw, K};
    auto hit = kept.find(key);
    if (hit == kept.end()) {
        long best = -1, best_face = 0;
        const int L0 = nzw - g.nf * g.fw;
        std::array<int, 3> plan = {g.fw, std::max(L0, 1), L0 > 0 ? 1 : 0};
        std::vector<std::pair<int, bool>> rows;
        for (int fw = g.fw; fw <= std::min(96, nzw / g.nf); fw++) {
            const int L = nzw - g.nf * fw;
            for (int ch = 1; ch <= std::min(32, std::max(L, 1)); ch++) {
                const int zc = L > 0 ? (L + ch - 1) / ch : 1, nrows = L > 0 ? (L + zc - 1) / zc : 0;
                if (nrows < ch) continue;   // the same chunks as a smaller ch
                rows.assign(g.nf, {fw + 2 * K, true});
                for (int j = 0; j < nrows; j++) rows.push_back({std::min(zc, L - j * zc) + 2 * K, false});
                long face_end;
                const long end = schedule_rows(rows, tiles, slots, &face_end);
                const bool in_time = face_end <= end - end / 6, best_in_time = best >= 0 && best_face <= best - best / 6;
                if (best < 0 || (in_time && !best_in_time) ||
                    (in_time == best_in_time && (end < best || (end == best && face_end < best_face)))) {
                    best = end;
                    best_face = face_end;
                    plan = {fw, zc, nrows};
                }
            }
        }
        hit = kept.emplace(key, plan).first;
    }
    g.fw = hit->second[0];
    g.zc = hit->second[1];
    g.mb = g.zb + (g.flo ? g.fw : 0);
    g.me = g.ze - (g.nf - g.flo ? g.fw : 0);
    return g.nf + hit->second[2];
}

// The chunks along z (tplane_geom); returns the rows of blocks along z.
// Without faces: the count that minimises waves x iterations per block (a
// chunk of zc planes takes zc + 2K iterations: its 2K halo planes, which fill
// and drain the pipeline), so that the blocks fill the GPU without a last
// wave of a few blocks costing a whole chunk's time. With faces first: the
// nf rows of face chunks start at once (the GPU schedules blocks in their
// order), then as many rows of main chunks as fit beside them; the rows after
// those start when the face blocks end, so they are shorter by a face chunk's
// iterations (fw + 2K), and there are at most nf of them: every block then
// ends about when the others do, in one wave. Where the face rows alone take
// the GPU's first wave (many tiles: grids wider than a tile): plan_wide_faces.
inline int plan_chunks(tplane_geom &g, long tiles, long slots, int K)
{
    const int nzw = g.ze - g.zb;
    g.mb = g.zb;
    g.me = g.ze;
    g.early = 1 << 30;
    g.zl = 0;
    if (!g.nf) {
        long best = -1;
        g.zc = std::max(nzw, 1);
        for (int ch = 1; ch <= std::min(nzw, 256); ch++) {
            const int zc = (nzw + ch - 1) / ch;
            const long cost = (tiles * ch + slots - 1) / slots * (zc + 2L * K);
            if (best < 0 || cost < best) { best = cost; g.zc = zc; }
        }
        return (nzw + g.zc - 1) / g.zc;
    }
    const int fhi = g.nf - g.flo, fcost = g.fw + 2 * K;
    g.mb = g.zb + (g.flo ? g.fw : 0);
    g.me = g.ze - (fhi ? g.fw : 0);
    const int L = g.me - g.mb;                         // main planes (split_step.cu: >= 0)
    const int first = (int)std::max(1L, slots / tiles);   // rows of blocks that start at once
    if (first <= g.nf) return plan_wide_faces(g, tiles, slots, K);
    long best = -1;
    int rows = 1;
    for (int ch = 1; ch <= std::max(1, std::min(L, first)); ch++) {
        const int early = std::max(0, std::min(ch, first - g.nf)), late = ch - early;
        if (late > g.nf) continue;   // more than the face blocks' SMs take at their end
        const int zc = (L + late * fcost + ch - 1) / ch;
        const long cost = zc + 2L * K;
        if (best < 0 || cost < best) {
            best = cost;
            g.zc = zc;
            g.zl = std::max(1, zc - fcost);
            g.early = early;
            rows = ch;
        }
    }
    return g.nf + rows;
}

#endif
