// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// a misspelt tmem declaration is a syntax error at the word

kernel k() targets(sm_100a) threads(128) {
    tmen t: f32[128, 64];
}

// CHECK: err-tcgen05-word.cake:5:5: error: expected 'tmem' before 'NAME: TYPE' (a tensor-memory declaration), found 'tmen'
// CHECK-NEXT: {{^}}    tmen t: f32[128, 64];
// CHECK-NEXT: {{^}}    ^
