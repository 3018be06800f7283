// The chunks of a tplane launch (cuda/tplane_plan.h), checked on the CPU:
// every plane a launch writes lies in exactly one chunk, a face to send first
// lies whole in its own chunk at the front of the launch, the plans of one
// wave end together, and the plans measured on the GPUs (docs/gpu-notebook.md
// items 13 and 25) come out as measured. The shapes are those the launch
// meets: one GPU (no faces), and a rank's owned planes under mpirun with one
// or two faces whose width is the ghost layers' K planes, also in a launch of
// fewer steps than K (the last before an output time).
#include <cstdio>
#include <set>
#include "check.h"
#include "tplane_plan.h"

namespace {

struct shape {
    long tiles, slots;
    int nz, K, faces, fw;   // faces: bit 0 low, bit 1 high (as launch_ctx.faces)
};

// The plan of a shape: the geometry and the rows of blocks along z.
int plan(const shape &s, tplane_geom &g)
{
    g = tplane_geom{};
    g.zb = 5;   // a rank's owned planes start after its ghost planes
    g.ze = g.zb + s.nz;
    g.flo = s.faces & 1;
    g.nf = g.flo + (s.faces >> 1 & 1);
    g.fw = s.fw;
    return plan_chunks(g, s.tiles, s.slots, s.K);
}

void describe(char *buf, size_t n, const shape &s)
{
    snprintf(buf, n, "tiles %ld slots %ld planes %d K %d faces %d width %d", s.tiles, s.slots, s.nz, s.K, s.faces,
             s.fw);
}

// Every plane in exactly one chunk, none outside the owned planes, no chunk
// reversed; the faces' chunks first and holding the fw planes next to each
// shared face.
void check_cover(const shape &s)
{
    char what[160];
    describe(what, sizeof what, s);
    tplane_geom g;
    const int rows = plan(s, g);
    CHECK(rows >= 1 && rows >= g.nf, "%s: %d rows", what, rows);
    std::vector<int> hits(s.nz, 0);
    int reversed = 0, outside = 0;
    for (int i = 0; i < rows; i++) {
        int lo, hi;
        tplane_chunk_bounds(g, i, &lo, &hi);
        if (hi < lo) reversed++;
        for (int z = lo; z < hi; z++) {
            if (z < g.zb || z >= g.ze) outside++;
            else hits[z - g.zb]++;
        }
    }
    int missed = 0, twice = 0;
    for (int h : hits) missed += h == 0, twice += h > 1;
    CHECK(!missed && !twice && !reversed && !outside,
          "%s: %d planes in no chunk, %d in two or more, %d chunks reversed, %d planes outside", what, missed, twice,
          reversed, outside);
    if (g.nf) {
        CHECK(g.fw >= s.fw, "%s: face chunks of %d planes, fewer than the face's %d", what, g.fw, s.fw);
        int lo, hi;
        if (g.flo) {
            tplane_chunk_bounds(g, 0, &lo, &hi);
            CHECK(lo == g.zb && hi - lo == g.fw, "%s: the low face's chunk is [%d, %d)", what, lo, hi);
        }
        if (g.nf > g.flo) {
            tplane_chunk_bounds(g, g.nf - 1, &lo, &hi);
            CHECK(hi == g.ze && hi - lo == g.fw, "%s: the high face's chunk is [%d, %d)", what, lo, hi);
        }
    }
}

// The rows of a plan as the scheduler model takes them: (iterations, face).
long schedule_of(const tplane_geom &g, int rows, const shape &s, long *face_end)
{
    std::vector<std::pair<int, bool>> r;
    for (int i = 0; i < rows; i++) {
        int lo, hi;
        tplane_chunk_bounds(g, i, &lo, &hi);
        if (hi > lo) r.push_back({hi - lo + 2 * s.K, i < g.nf});
    }
    return schedule_rows(r, s.tiles, s.slots, face_end);
}

// Where the face rows leave room in the first wave, the blocks that start when
// the face blocks end end no later than the first wave's main blocks: the
// launch takes the longest main chunk's iterations (or, with main chunks
// shorter than the face chunks' work, the faces' and a chunk after them).
void check_one_wave(const shape &s)
{
    char what[160];
    describe(what, sizeof what, s);
    tplane_geom g;
    const int rows = plan(s, g);
    long face_end;
    const long end = schedule_of(g, rows, s, &face_end);
    const long fcost = g.fw + 2L * s.K;
    const long bound = std::max<long>(g.zc + 2L * s.K, fcost + 1 + 2L * s.K);
    CHECK(end <= bound && face_end == fcost, "%s: the launch ends at %ld (bound %ld), its faces at %ld (%ld)", what,
          end, bound, face_end, fcost);
}

// The plans the GPU measurements ran (4 x H200 and H100, 132 SMs, one block
// an SM, K = 3; 256^3: 26 tiles of 256 x 16 cells, 512^3: 81 of 64 x 64).
void check_measured()
{
    tplane_geom g;
    long face_end;
    // one GPU, 256^3: chunks of 52 planes, 58 iterations (item 13)
    shape one = {26, 132, 256, 3, 0, 3};
    int rows = plan(one, g);
    CHECK(rows == 5 && g.zc == 52 && schedule_of(g, rows, one, &face_end) == 58,
          "one GPU 256^3: %d rows of %d planes", rows, g.zc);
    // a rank of 4 at 256^3 without faces: 5 rows of 13, 19 iterations (item 25)
    shape quarter = {26, 132, 64, 3, 0, 3};
    rows = plan(quarter, g);
    CHECK(rows == 5 && g.zc == 13 && schedule_of(g, rows, quarter, &face_end) == 19,
          "64 planes, no faces: %d rows of %d planes", rows, g.zc);
    // its middle rank with both faces first: 22 iterations, faces done at 9
    shape middle = {26, 132, 64, 3, 3, 3};
    rows = plan(middle, g);
    long end = schedule_of(g, rows, middle, &face_end);
    CHECK(end == 22 && face_end == 9, "256^3, a middle rank of 4: %ld iterations, faces at %ld", end, face_end);
    // 512^3 and 1024^3 (81 and 324 tiles of 64 x 64): on 2 ranks, faces of 85
    // planes and two rows of main chunks of 86, and faces of 3 and two rows
    // of 255; on a middle rank of 4, faces of 34 and four rows of 15 (103
    // iterations, the faces done at 80: a sixth of the launch before its
    // end), and faces of 3 and two rows of 125 (700, 45). scripts/
    // tplane_schedule.lua's model prints the same plans (tests/tplane_schedule.lua).
    struct measured {
        const char *grid;
        long tiles;
        int nz, faces, fw, zc, rows;
        long end, face_end;   // 0: not pinned
    };
    const measured plans[] = {
        {"512^3 on 2 ranks, low face", 81, 256, 1, 85, 86, 3, 0, 0},
        {"512^3 on 2 ranks, high face", 81, 256, 2, 85, 86, 3, 0, 0},
        {"512^3, a middle rank of 4", 81, 128, 3, 34, 15, 6, 103, 80},
        {"1024^3 on 2 ranks, low face", 324, 512, 1, 3, 255, 3, 0, 0},
        {"1024^3 on 2 ranks, high face", 324, 512, 2, 3, 255, 3, 0, 0},
        {"1024^3, a middle rank of 4", 324, 256, 3, 3, 125, 4, 700, 45},
    };
    for (const measured &m : plans) {
        const shape s = {m.tiles, 132, m.nz, 3, m.faces, 3};
        rows = plan(s, g);
        const long end = schedule_of(g, rows, s, &face_end);
        CHECK(g.fw == m.fw && g.zc == m.zc && rows == m.rows && (!m.end || (end == m.end && face_end == m.face_end)),
              "%s: faces of %d, %d rows of %d, %ld iterations, faces at %ld", m.grid, g.fw, rows - g.nf, g.zc, end,
              face_end);
    }
}

} // namespace

int main()
{
    int shapes = 0;
    const long tiles_of[] = {1, 4, 26, 81, 132, 200, 324};
    const long slots_of[] = {132, 264};
    for (long tiles : tiles_of)
        for (long slots : slots_of)
            for (int K = 1; K <= 3; K++)
                for (int faces = 0; faces <= 3; faces++)
                    for (int nz = 1; nz <= 140; nz += nz < 40 ? 1 : 7) {
                        // a face is the ghost layers' 3 planes (K = 3), also
                        // in a launch of fewer steps; a rank's part holds them
                        const int fw = faces ? 3 : K, nf = (faces & 1) + (faces >> 1);
                        if (nz < nf * fw) continue;
                        const shape s = {tiles, slots, nz, K, faces, fw};
                        check_cover(s);
                        if (faces && slots / tiles > nf) check_one_wave(s);
                        shapes++;
                    }
    printf("%d shapes planned\n", shapes);
    check_measured();
    return check_summary();
}
