/* target.c: the target table (targets.def) and the chip facts derived from it, each rule
 * in one place: which targets an op exists on, and a kernel's register file, entry
 * register budget and shared-memory limit. */
#include "ir.h"

#include <stdio.h>
#include <string.h>

const IrTargetInfo ir_targets[TARGET_COUNT] = {
#define TARGET(id, name, ccmaj, ccmin, cpu, ptx, regfile, maxregs, smem, feat) \
	{#id, name, ccmaj, ccmin, cpu, ptx, regfile, maxregs, smem, feat},
#include "targets.def"
#undef TARGET
};

static const char *const feature_names[FEAT_COUNT] = {
	"tma", "cluster", "setmaxnreg", "wgmma", "tcgen05", "tmem", "f32x2",
};

const char *
ir_feature_name(unsigned bit)
{
	int i;

	for (i = 0; i < FEAT_COUNT; i++)
		if (bit == 1u << i)
			return feature_names[i];
	return "?";
}

const char *
ir_target_name(int t)
{
	return t >= 0 && t < TARGET_COUNT ? ir_targets[t].name : "?";
}

int
ir_target_from_name(const char *s)
{
	int i;

	for (i = 0; i < TARGET_COUNT; i++)
		if (strcmp(s, ir_targets[i].name) == 0)
			return i;
	return -1;
}

unsigned
ir_feature_targets(unsigned feat)
{
	unsigned mask = 0;
	int t;

	for (t = 0; t < TARGET_COUNT; t++)
		if ((ir_targets[t].features & feat) == feat)
			mask |= 1u << t;
	return mask;
}

unsigned
ir_op_targets(int opc)
{
	if (opc < 0 || opc >= IR_NOPCODES)
		return 0;
	return ir_feature_targets(ir_opinfo[opc].features);
}

void
ir_target_list(Buf *out, unsigned mask, const char *last)
{
	int t, n = 0, total = 0;

	for (t = 0; t < TARGET_COUNT; t++)
		total += (mask >> t) & 1;
	for (t = 0; t < TARGET_COUNT; t++) {
		if (!(mask & (1u << t)))
			continue;
		if (n > 0)
			buf_puts(out, n == total - 1 && last ? last : ", ");
		buf_puts(out, ir_targets[t].name);
		n++;
	}
}

const char *
ir_all_target_names(const char *last)
{
	static char text[256];
	Buf b = {0};

	ir_target_list(&b, IR_ALL_TARGETS, last);
	snprintf(text, sizeof text, "%s", b.s);
	buf_free(&b);
	return text;
}

/* The targets a kernel's facts are taken over: its own, or all of them when it names none
 * (IR written without a `targets` line). */
static unsigned
kernel_targets(const IrKernel *k)
{
	return k->targets & IR_ALL_TARGETS ? k->targets & IR_ALL_TARGETS : IR_ALL_TARGETS;
}

static int64_t get_regfile(const IrTargetInfo *t) { return t->regfile; }
static int64_t get_max_regs(const IrTargetInfo *t) { return t->max_regs; }
static int64_t get_smem_block(const IrTargetInfo *t) { return t->smem_block; }

/* The smallest value of a per-target fact over the kernel's targets: a kernel must fit
 * every chip it is built for. */
static int64_t
fact_min(const IrKernel *k, int64_t (*get)(const IrTargetInfo *))
{
	unsigned mask = kernel_targets(k);
	int64_t best = -1;
	int t;

	for (t = 0; t < TARGET_COUNT; t++)
		if ((mask >> t & 1) && (best < 0 || get(&ir_targets[t]) < best))
			best = get(&ir_targets[t]);
	return best;
}

int
ir_kernel_regfile(const IrKernel *k)
{
	return (int)fact_min(k, get_regfile);
}

int64_t
ir_kernel_smem_limit(const IrKernel *k)
{
	return fact_min(k, get_smem_block);
}

/* The registers per thread a kernel starts with: the register file shared by its threads
 * times min_blocks CTAs, rounded down to the allocation unit of 8, at most the per-thread
 * cap. This is the count ptxas gives a kernel with those launch bounds, so setmaxnreg needs
 * no instruction for a budget equal to it, and warps in no role with a budget hold it. */
int
ir_entry_regs(const IrKernel *k)
{
	int64_t n = (int64_t)k->threads[0] * k->threads[1] * k->threads[2];
	int64_t cap = fact_min(k, get_max_regs), per;

	per = ir_kernel_regfile(k) / ((n > 0 ? n : 1) * (k->min_blocks > 0 ? k->min_blocks : 1));
	per = per / 8 * 8;
	return per > cap ? (int)cap : (int)per;
}
