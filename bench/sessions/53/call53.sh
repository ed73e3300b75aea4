#!/bin/bash
# session 53's device call: the persistent multi design against 5efcc3e's (call_multi.sh),
# then the gdp bisection (call_bis.sh, two rounds; whatever the time limit leaves)
cd "$(dirname "$0")/../../.."
bash bench/sessions/53/call_multi.sh
bash bench/sessions/53/call_bis.sh
