/* runtime.c: the runtime files (runtime/cakert.[ch], embedded by host/embed.cmake) as cakec
 * writes them into an output folder. There they must compile on their own, so they cannot
 * include ir/targets.def; instead each of their target facts is a marker line, a comment
 * that starts with "@cakec:NAME", which is replaced here with the text generated from
 * ir_targets[]. Adding a target is then one row of ir/targets.def. */
#include "host.h"

#include <string.h>

#define MARKER "/* @cakec:"

/* enum { CAKERT_<ID>, ..., CAKERT_TARGET_COUNT }; in the table's order */
static void
gen_target_enum(Buf *out)
{
	int t;

	buf_puts(out, "enum { ");
	for (t = 0; t < TARGET_COUNT; t++)
		buf_printf(out, "CAKERT_%s, ", ir_targets[t].id);
	buf_puts(out, "CAKERT_TARGET_COUNT };\n");
}

/* The names messages print, indexed by CAKERT_<ID>. */
static void
gen_target_names(Buf *out)
{
	int t;

	buf_puts(out, "static const char *const target_names[CAKERT_TARGET_COUNT] = {");
	for (t = 0; t < TARGET_COUNT; t++)
		buf_printf(out, "%s\"%s\"", t ? ", " : "", ir_targets[t].name);
	buf_puts(out, "};\n");
}

/* The body of target_of(major, minor): the target a device's compute capability runs. */
static void
gen_target_of(Buf *out)
{
	int t;

	for (t = 0; t < TARGET_COUNT; t++)
		buf_printf(out, "\tif (major == %d && minor == %d)\n\t\treturn CAKERT_%s;\n",
			   ir_targets[t].cc_major, ir_targets[t].cc_minor, ir_targets[t].id);
}

static const struct {
	const char *name;
	void (*gen)(Buf *out);
} markers[] = {
	{"target-enum", gen_target_enum},
	{"target-names", gen_target_names},
	{"target-of", gen_target_of},
};

/* Replaces the marker line that starts at s (after its indentation) of file f. */
static void
expand(const HostFile *f, const char *s, Buf *out)
{
	size_t n = strcspn(s + strlen(MARKER), " */\n");
	size_t i;

	for (i = 0; i < sizeof markers / sizeof markers[0]; i++)
		if (strlen(markers[i].name) == n && strncmp(s + strlen(MARKER), markers[i].name, n) == 0) {
			markers[i].gen(out);
			return;
		}
	ICE("runtime file %s: unknown marker @cakec:%.*s", f->name, (int)n, s + strlen(MARKER));
}

void
host_runtime_text(const HostFile *f, Buf *out)
{
	const char *line, *next, *s;

	for (line = f->text; *line; line = next) {
		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		for (s = line; *s == '\t' || *s == ' '; s++)
			;
		if (strncmp(s, MARKER, strlen(MARKER)) == 0)
			expand(f, s, out);
		else
			buf_putn(out, line, (int)(next - line));
	}
}
