#!/bin/bash
# session 56, call 1 (H200): session 55's call 5 (warp O / H / C / S, tma O / P) where section 54
# found the slowdown, then call 2's cp_fixup half (NOVSA=1). Bundles: ab57, cpx, cur55.
bash bench/sessions/55/call5.sh
NOVSA=1 bash bench/sessions/55/call2.sh
