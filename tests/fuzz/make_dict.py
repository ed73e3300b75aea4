#!/usr/bin/env python3
"""make_dict.py cake|ir SRCROOT OUT: writes a libFuzzer dictionary from the tables that own
the words, so that it follows the language: for .cake, the lexer's keywords
(frontend/lexer.l), the builtins (frontend/builtins.def), the kernel clauses (the table in
frontend/ast.c), the words of the async statements, the type names and punctuation;
for IR, the opcodes (ir/ops.def) and the header and type words the IR parser reads."""
import re
import sys

TYPES = ["i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf16", "f32",
         "f64", "e4m3", "e5m2", "f32acc", "bf16a", "f16a", "f32x4", "bf16x2"]
CAKE_PUNCT = ["..", "->", "::", "<=", ">=", "==", "!=", "&&", "||", "<<", ">>", "+=", "[", "]",
              "{", "}", "(", ")", "<", ">", ":", ";", ",", "=", "|", "@"]
CAKE_WORDS = ["role", "elect", "produce", "consume", "pipeline", "mbarrier", "tensormap", "tmem",
              "warp", "warps", "warpgroup", "warpgroups", "leader", "packed", "regs", "stages",
              "full", "empty", "tma", "mma", "thread", "count", "swizzle", "align", "alias",
              "instance", "as", "step", "unroll", "out", "inout", "box", "multicast", "part", "accumulate"]
IR_WORDS = ["kernel", "targets", "threads", "grid", "param", "shared", "body", "tensor", "in",
            "out", "inout", "sym", "align", "ptr.global", "ptr.shared", "ret", "yield", "sm_90a",
            "sm_100a", "sm_103a", "cluster", "regs", "index", "%", "@", "\"cdiv(", "\"1\""]


def words(kind, root):
    out = []
    if kind == "cake":
        out += re.findall(r'^"([^"\\]+)"\s', open(root + "/frontend/lexer.l").read(), re.M)
        out += re.findall(r'^BUILTIN\(\w+,\s*"([^"]+)"', open(root + "/frontend/builtins.def").read(), re.M)
        out += re.findall(r'\{"(\w+)", N_\w+\}', open(root + "/frontend/ast.c").read())
        out += TYPES + CAKE_PUNCT + CAKE_WORDS
    else:
        out += re.findall(r'^OP\(\w+,\s*"([^"]+)"', open(root + "/ir/ops.def").read(), re.M)
        out += TYPES + IR_WORDS
    return sorted(set(out))


def main():
    kind, root, path = sys.argv[1:4]
    with open(path, "w") as f:
        for w in words(kind, root):
            f.write('"%s"\n' % w.replace("\\", "\\\\").replace('"', '\\"'))
    return 0


if __name__ == "__main__":
    sys.exit(main())
