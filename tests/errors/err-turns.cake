// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// take_turn() and pass_turn() (docs/language.md, "Taking turns"): outside a role, in a
// role of warps that are not whole warpgroups, in an elect block, with arguments; and the
// pairing along every path: twice in a row, a pass without the turn, a loop body or an if
// branch that changes who holds it, a break while holding it, a role that ends holding it.
kernel turns_err(o: out f32[128], n: i32)
    targets(sm_90a) threads(384)
{
    take_turn();
    role half(warps 0 .. 1) {
        take_turn();
        pass_turn();
    }
    role pair(warpgroups 1 .. 2) {
        take_turn(1);
        pass_turn(1);
        take_turn();
        take_turn();
        pass_turn();
        pass_turn();
        for (i in 0 .. n) {
            take_turn();
        }
        if (n > 2) {
            take_turn();
            pass_turn();
        } else {
            take_turn();
        }
        pass_turn();
        while (n > 0) {
            take_turn();
            break;
        }
        elect {
            take_turn();
        }
        take_turn();
    }
}

// CHECK: err-turns.cake:9:5: error: take_turn() outside a role: the warpgroups of a role take turns
// CHECK: err-turns.cake:11:9: error: take_turn() in role 'half' of warps 0 .. 1: turns pass between whole warpgroups (warpgroups a .. b)
// CHECK: err-turns.cake:12:9: error: pass_turn() in role 'half' of warps 0 .. 1: turns pass between whole warpgroups (warpgroups a .. b)
// CHECK: err-turns.cake:15:9: error: 'take_turn' takes no arguments, found 1
// CHECK-NEXT: {{^}}        take_turn(1);
// CHECK-NEXT: {{^}}        ^
// CHECK: err-turns.cake:16:9: error: 'pass_turn' takes no arguments, found 1
// CHECK: err-turns.cake:36:13: error: take_turn() in an elect block: the whole warpgroup takes and passes the turn
// CHECK: err-turns.cake:18:9: error: take_turn() while the warpgroup holds the turn: pass_turn() first
// CHECK: err-turns.cake:20:9: error: pass_turn() without the turn: take_turn() first
// CHECK: err-turns.cake:21:9: error: the body of this loop takes the turn: take_turn() and pass_turn() pair up inside it
// CHECK: err-turns.cake:24:9: error: the branches of this if leave the turn differently (one holds it, the other not)
// after it the walk goes on from the then branch, which passed the turn:
// CHECK: err-turns.cake:30:9: error: pass_turn() without the turn: take_turn() first
// CHECK: err-turns.cake:33:13: error: 'break' while the warpgroup holds the turn: pass_turn() first
// CHECK: err-turns.cake:31:9: error: the body of this loop takes the turn: take_turn() and pass_turn() pair up inside it
// CHECK: err-turns.cake:38:9: error: take_turn() while the warpgroup holds the turn: pass_turn() first
// CHECK: err-turns.cake:14:10: error: role 'pair' ends holding the turn: pass_turn() before its end
