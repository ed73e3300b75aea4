// --emit=ast: the checked tree, indented, with @line:col on every node, the type of each
// expression and the value of each constant.
// RUN: %cakec --emit=ast %s | FileCheck --strict-whitespace %s

const BLOCK: i32 = 64;
const HALF = BLOCK / 2;

kernel scale(x: in f32[M, 4], y: out f32[M, 4], s: f32)
    threads(BLOCK) grid(cdiv(M, HALF))
{
    let i = block.x * BLOCK + thread.x;
    var acc: f32 = 0.0;
    if (i < M && !(s == 0.0)) {
        acc = s * x[i, 0] + 1;
    }
    y[i, 3] = acc;
}

// CHECK:      program {{.*}}ast.cake
// CHECK-NEXT: {{^}}  const BLOCK @5:1 : i32 = 64
// CHECK-NEXT: {{^}}    type i32 @5:14
// CHECK-NEXT: {{^}}    int 64 @5:20 : i32 = 64
// CHECK-NEXT: {{^}}  const HALF @6:1 : i32 = 32
// CHECK-NEXT: {{^}}    binary / @6:20 : i32 = 32
// CHECK-NEXT: {{^}}      name BLOCK @6:14 : i32 = 64
// CHECK-NEXT: {{^}}      int 2 @6:22 : i32 = 2
// CHECK-NEXT: {{^}}  kernel scale @8:8
// CHECK-NEXT: {{^}}    param x in @8:14
// CHECK-NEXT: {{^}}      type f32 @8:20
// CHECK-NEXT: {{^}}        name M @8:24 : i32
// CHECK-NEXT: {{^}}        int 4 @8:27 : untyped int = 4
// CHECK-NEXT: {{^}}    param y out @8:31
// CHECK-NEXT: {{^}}      type f32 @8:38
// CHECK-NEXT: {{^}}        name M @8:42 : i32
// CHECK-NEXT: {{^}}        int 4 @8:45 : untyped int = 4
// CHECK-NEXT: {{^}}    param s @8:49
// CHECK-NEXT: {{^}}      type f32 @8:52
// CHECK-NEXT: {{^}}    threads @9:5
// CHECK-NEXT: {{^}}      name BLOCK @9:13 : i32 = 64
// CHECK-NEXT: {{^}}    grid @9:20
// CHECK-NEXT: {{^}}      call cdiv @9:25
// CHECK-NEXT: {{^}}        name M @9:30
// CHECK-NEXT: {{^}}        name HALF @9:33
// CHECK-NEXT: {{^}}    block @10:1
// CHECK-NEXT: {{^}}      let i @11:5 : i32
// CHECK-NEXT: {{^}}        binary + @11:29 : i32
// CHECK-NEXT: {{^}}          binary * @11:21 : i32
// CHECK-NEXT: {{^}}            member .x @11:19 : i32
// CHECK-NEXT: {{^}}              name block @11:13
// CHECK-NEXT: {{^}}            name BLOCK @11:23 : i32 = 64
// CHECK-NEXT: {{^}}          member .x @11:38 : i32
// CHECK-NEXT: {{^}}            name thread @11:31
// CHECK-NEXT: {{^}}      var acc @12:5 : f32
// CHECK-NEXT: {{^}}        type f32 @12:14
// CHECK-NEXT: {{^}}        float 0.0 @12:20 : f32 = 0.0
// CHECK-NEXT: {{^}}      if @13:5
// CHECK-NEXT: {{^}}        cond: binary && @13:15 : i1
// CHECK-NEXT: {{^}}          binary < @13:11 : i1
// CHECK-NEXT: {{^}}            name i @13:9 : i32
// CHECK-NEXT: {{^}}            name M @13:13 : i32
// CHECK-NEXT: {{^}}          unary ! @13:18 : i1
// CHECK-NEXT: {{^}}            binary == @13:22 : i1
// CHECK-NEXT: {{^}}              name s @13:20 : f32
// CHECK-NEXT: {{^}}              float 0.0 @13:25 : f32 = 0.0
// CHECK-NEXT: {{^}}        then: block @13:31
// CHECK-NEXT: {{^}}          assign = @14:13
// CHECK-NEXT: {{^}}            to: name acc @14:9 : f32
// CHECK-NEXT: {{^}}            binary + @14:27 : f32
// CHECK-NEXT: {{^}}              binary * @14:17 : f32
// CHECK-NEXT: {{^}}                name s @14:15 : f32
// CHECK-NEXT: {{^}}                index @14:20 : f32
// CHECK-NEXT: {{^}}                  base: name x @14:19
// CHECK-NEXT: {{^}}                  index: name i @14:21 : i32
// CHECK-NEXT: {{^}}                  index: int 0 @14:24 : i32 = 0
// CHECK-NEXT: {{^}}              int 1 @14:29 : f32 = 1.0
// CHECK-NEXT: {{^}}      assign = @16:13
// CHECK-NEXT: {{^}}        to: index @16:6 : f32
// CHECK-NEXT: {{^}}          base: name y @16:5
// CHECK-NEXT: {{^}}          index: name i @16:7 : i32
// CHECK-NEXT: {{^}}          index: int 3 @16:10 : i32 = 3
// CHECK-NEXT: {{^}}        name acc @16:15 : f32
