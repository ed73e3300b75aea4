# embed.py C_FILE PTX_FILE: replace the PTX and the sm_90a cubin arrays of a cakec launcher with
# the given PTX and ptxas's cubin of it (experiment only)
import re, subprocess, sys
cf, pf = sys.argv[1], sys.argv[2]
ptx = open(pf, 'rb').read()
if not ptx.endswith(b'\0'): ptx += b'\0'
subprocess.check_call(['/usr/local/cuda/bin/ptxas', '-arch=sm_90a', '-v', pf, '-o', pf + '.cubin'])
cub = open(pf + '.cubin', 'rb').read()
def arr(b):
    rows = [','.join('0x%02x' % x for x in b[i:i+20]) + ',' for i in range(0, len(b), 20)]
    return '\t' + '\n\t'.join(rows) + '\n'
s = open(cf).read()
def sub(s, kind, data):
    m = re.search(r'(static const unsigned char \w+_%s_sm_90a\[)(\d+)(\] = \{\n)(.*?)(\n\};)' % kind, s, re.S)
    assert m, kind
    return s[:m.start()] + m.group(1) + str(len(data)) + m.group(3) + arr(data).rstrip('\n') + m.group(5) + s[m.end():]
s = sub(s, 'ptx', ptx)
s = sub(s, 'cubin', cub)
open(cf, 'w').write(s)
