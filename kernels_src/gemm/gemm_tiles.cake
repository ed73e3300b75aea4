// gemm_tiles.cake: the order the persistent GEMMs (gemm.cake, gemm_scaled.cake,
// gemm_sm100.cake, gemm_sm100_2cta.cake) walk their tiles in, one rule for all: tiles are
// numbered in groups of GROUP_M tile-rows, the tile-row fastest within a group, so that the
// CTAs running at the same time share both A and B tiles in L2 instead of streaming all of
// B once per tile-row. No kernel; each of those files imports it.
const GROUP_M: i32 = 8;

// The tile-row of tile `tile` among tiles_m x tiles_n tiles.
fn tile_row(tile: i32, tiles_m: i32, tiles_n: i32) -> i32 {
    let group = tile / (GROUP_M * tiles_n);
    let gm = min(tiles_m - group * GROUP_M, GROUP_M);
    return group * GROUP_M + tile % (GROUP_M * tiles_n) % gm;
}

// The tile-column of tile `tile` among tiles_m x tiles_n tiles.
fn tile_col(tile: i32, tiles_m: i32, tiles_n: i32) -> i32 {
    let group = tile / (GROUP_M * tiles_n);
    let gm = min(tiles_m - group * GROUP_M, GROUP_M);
    return tile % (GROUP_M * tiles_n) / gm;
}
