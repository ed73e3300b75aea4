#!/bin/bash
# session 55: call1.sh on an H200 (the fix against 550a03e where section 54 measured the
# slowdown), call3.sh on anything else
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then bash bench/sessions/55/call1.sh; else bash bench/sessions/55/call3.sh; fi
