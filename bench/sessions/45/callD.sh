#!/bin/bash
# session 45 call D (the H200, right after callC.sh on the same warm machine): cp_fixup's
# benchmark on the `new` bundle (550a03e), issue 17.
D=/tmp/dev; [ -d $D/new ] || tar xJf .device/new.tar.xz -C $D; nvidia-smi --query-gpu=name --format=csv,noheader; CAKEC_COMMIT=$(cat $D/new/COMMIT) timeout 150 python3 bench/cp_fixup.py --build $D/new/build --out $OUT/cpf.md > $OUT/cpf.log 2>&1; echo rc=$?; grep -E "^- |^\| B" $OUT/cpf.md | cut -d'|' -f1-13 | head -50
