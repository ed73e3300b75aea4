// Roles become `role lo, hi, regs` regions (warps, register budget), elect an `elect`
// region, produce/consume blocks `produce[p]`/`consume[p]` regions. Each role has a hidden
// stage and phase per pipeline, starting at 0 inside the role, carried through loops, ifs
// and elect like variables, passed to the block and advanced after it:
// stage' = stage + 1 == N ? 0 : stage + 1, phase' flips when the stage wraps. A staged
// buffer in a block is its current stage (smem.stage); tma_load in a produce block signals
// the pipeline's full barrier of that stage. Variables of the kernel assigned in a role or
// a block leave it as results (a role's initial values for the warps outside it).
// RUN: %cakec --emit=ir --passes= %s | FileCheck %s

kernel roles(a: in f32[N, 64], o: out f32[N])
    targets(sm_90a) threads(256) min_blocks(1)
{
    tensormap ta = tma(a, box[1, 64]);
    pipeline ld(stages: 2, full: tma, empty: warp * 4);
    shared buf: f32[1, 64] in ld;
    var count: i32 = 0;
    role producer(warpgroup 0) regs(40) {
        if (warp == 0) {
            elect {
                for (r in 0 .. N) {
                    produce ld {
                        tma_load(buf, ta, [r, 0]);
                    }
                }
            }
        }
    }
    role consumer(warps 4 .. 7) {
        for (r in 0 .. N) {
            consume ld {
                count += 1;
                if (lane == 0 && warp == 4) {
                    o[r] = buf[0, lane];
                }
            }
        }
    }
    o[0] = f32(count);
}

// CHECK-LABEL: kernel @roles {
// CHECK:        [[COUNT0:%[0-9]+]] = const 0 : i32 !17:22
// CHECK-NEXT:   [[LO:%[0-9]+]] = const 0 : i32 !18:10
// CHECK-NEXT:   [[HI:%[0-9]+]] = const 3 : i32 !18:10
// CHECK-NEXT:   [[REGS:%[0-9]+]] = const 40 : i32 !18:10
// CHECK-NEXT:   role [[LO]], [[HI]], [[REGS]] {
// CHECK-NEXT:     [[S0:%[0-9]+]] = const 0 : i32 !18:10
// CHECK-NEXT:     [[P0:%[0-9]+]] = const 0 : i32 !18:10
// CHECK:          [[IS0:%[0-9]+]] = cmp.eq {{%[0-9]+}}, {{%[0-9]+}} : i1 !19:18
// CHECK-NEXT:     {{%[0-9]+}}, {{%[0-9]+}} = if [[IS0]] : i32, i32 {
// CHECK-NEXT:       [[ES:%[0-9]+]], [[EP:%[0-9]+]] = elect [[S0]], [[P0]] : i32, i32 {
// CHECK:              [[FS:%[0-9]+]], [[FP:%[0-9]+]] = for[0] {{%[0-9]+}}, %3, {{%[0-9]+}}, [[S0]], [[P0]] : i32, i32 ([[R:%[0-9]+]]: i32, [[S:%[0-9]+]]: i32, [[P:%[0-9]+]]: i32) {
// CHECK-NEXT:           produce[0] [[S]], [[P]] {
// CHECK-NEXT:             [[DST:%[0-9]+]] = smem.stage[0] [[S]] : ptr.shared.f32 !23:25
// CHECK-NEXT:             [[BAR:%[0-9]+]] = mbar[0] [[S]] : ptr.shared.i64 !23:25
// CHECK-NEXT:             [[C0:%[0-9]+]] = const 0 : i32 !23:47
// CHECK-NEXT:             tma.load[2] [[DST]], %4, [[BAR]], [[R]], [[C0]] !23:25
// CHECK-NEXT:             yield !22:21
// CHECK-NEXT:           } !22:21
// CHECK-NEXT:           [[ONE:%[0-9]+]] = const 1 : i32 !22:21
// CHECK-NEXT:           [[S1:%[0-9]+]] = add [[S]], [[ONE]] : i32 !22:21
// CHECK-NEXT:           [[N:%[0-9]+]] = const 2 : i32 !22:21
// CHECK-NEXT:           [[WRAP:%[0-9]+]] = cmp.eq [[S1]], [[N]] : i1 !22:21
// CHECK-NEXT:           [[ZERO:%[0-9]+]] = const 0 : i32 !22:21
// CHECK-NEXT:           [[SN:%[0-9]+]] = select [[WRAP]], [[ZERO]], [[S1]] : i32 !22:21
// CHECK-NEXT:           [[PX:%[0-9]+]] = xor [[P]], [[ONE]] : i32 !22:21
// CHECK-NEXT:           [[PN:%[0-9]+]] = select [[WRAP]], [[PX]], [[P]] : i32 !22:21
// CHECK-NEXT:           yield [[SN]], [[PN]] !21:17
// CHECK-NEXT:         } !21:17
// CHECK-NEXT:         yield [[FS]], [[FP]] !20:13
// CHECK-NEXT:       } !20:13
// CHECK-NEXT:       yield [[ES]], [[EP]] !19:9
// CHECK-NEXT:     } else {
// CHECK-NEXT:       yield [[S0]], [[P0]] !19:9
// CHECK-NEXT:     } !19:9
// CHECK-NEXT:     yield !18:10
// CHECK-NEXT:   } !18:10

// The consumer carries the variable `count` out of the consume block, the loop and the
// role (the other warps keep its initial value).
// CHECK-NEXT:   [[CLO:%[0-9]+]] = const 4 : i32 !29:10
// CHECK-NEXT:   [[CHI:%[0-9]+]] = const 7 : i32 !29:10
// CHECK-NEXT:   [[CREGS:%[0-9]+]] = const 0 : i32 !29:10
// CHECK-NEXT:   [[COUNT:%[0-9]+]] = role [[CLO]], [[CHI]], [[CREGS]], [[COUNT0]] : i32 {
// CHECK-NEXT:     [[CS0:%[0-9]+]] = const 0 : i32 !29:10
// CHECK-NEXT:     [[CP0:%[0-9]+]] = const 0 : i32 !29:10
// CHECK:          [[LC:%[0-9]+]], {{%[0-9]+}}, {{%[0-9]+}} = for[0] {{%[0-9]+}}, %3, {{%[0-9]+}}, [[COUNT0]], [[CS0]], [[CP0]] : i32, i32, i32 ([[R2:%[0-9]+]]: i32, [[CNT:%[0-9]+]]: i32, [[CS:%[0-9]+]]: i32, [[CP:%[0-9]+]]: i32) {
// CHECK-NEXT:       [[NEWC:%[0-9]+]] = consume[0] [[CS]], [[CP]] : i32 {
// CHECK:              [[INC:%[0-9]+]] = add [[CNT]], {{%[0-9]+}} : i32 !32:23
// CHECK:              {{%[0-9]+}} = smem.stage[0] [[CS]] : ptr.shared.f32 !34:31
// CHECK:            yield [[INC]] !31:13
// CHECK-NEXT:       } !31:13
// CHECK:            yield [[NEWC]], {{%[0-9]+}}, {{%[0-9]+}} !30:9
// CHECK:          yield [[LC]] !29:10
// CHECK-NEXT:   } !29:10
// CHECK:        [[F:%[0-9]+]] = cast [[COUNT]] : f32
