/* backend_ptx/ptxas.c: finds ptxas and runs it on PTX in a private temporary folder.
 * No shell is involved: the PTX never passes through a command line. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* pipe2 */
#endif
#include "backend.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define CUDA_PTXAS "/usr/local/cuda/bin/ptxas"

static int
is_executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

const char *
ptx_find_ptxas(void)
{
	/* per thread: targets assemble on threads of their own */
	static _Thread_local char found[4096];
	const char *env = getenv("CAKEC_PTXAS"), *path, *p;

	if (env && *env)
		return is_executable(env) ? env : NULL;
	if (is_executable(CUDA_PTXAS))
		return CUDA_PTXAS;
	path = getenv("PATH");
	for (p = path; p && *p;) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n > 0 && n + sizeof "/ptxas" < sizeof found) {
			memcpy(found, p, n);
			memcpy(found + n, "/ptxas", sizeof "/ptxas");
			if (is_executable(found))
				return found;
		}
		p = end ? end + 1 : p + n;
	}
	return NULL;
}

static int
write_all(int fd, const char *s, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Runs argv with stdout and stderr into log; returns the exit status, or -1. */
static int
run_captured(char *const argv[], Buf *log)
{
	int fds[2], status;
	pid_t pid;
	char chunk[4096];
	ssize_t n;

	/* close-on-exec: a ptxas that another thread starts meanwhile must not hold this
	 * pipe open (the child's dup2 copies drop the flag) */
	if (pipe2(fds, O_CLOEXEC) != 0) {
		buf_printf(log, "pipe: %s\n", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		buf_printf(log, "fork: %s\n", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[1]);
		execv(argv[0], argv);
		/* only async-signal-safe calls between fork and exec in a threaded process */
		if (write(STDERR_FILENO, "cannot run ptxas\n", 17) < 0)
			_exit(127);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], chunk, sizeof chunk)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		buf_putn(log, chunk, (int)n);
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			buf_printf(log, "waitpid: %s\n", strerror(errno));
			return -1;
		}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	buf_printf(log, "ptxas killed by signal %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return -1;
}

/* Whether the PTX has `.file` directives (a line table, from cakec --lineinfo). */
static int
has_line_table(const char *ptx, size_t len)
{
	static const char key[] = "\n\t.file\t";
	size_t i, n = sizeof key - 1;

	for (i = 0; i + n <= len; i++)
		if (memcmp(ptx + i, key, n) == 0)
			return 1;
	return 0;
}

int
ptx_assemble(const char *ptx, size_t len, int target, Buf *cubin, Buf *log)
{
	const char *ptxas = ptx_find_ptxas(), *tmp = getenv("TMPDIR");
	char dir[4096], in[4200], out[4200], arch[32];
	char *argv[7], *data;
	size_t n;
	int fd, rc = -1;

	if (!ptxas) {
		buf_puts(log, "no ptxas found (set CAKEC_PTXAS or install the CUDA toolkit)\n");
		return -1;
	}
	if (target < 0 || target >= TARGET_COUNT) {
		buf_printf(log, "unknown target %d\n", target);
		return -1;
	}
	snprintf(dir, sizeof dir, "%s/cakec-ptxas-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		buf_printf(log, "cannot create a temporary folder %s: %s\n", dir, strerror(errno));
		return -1;
	}
	snprintf(in, sizeof in, "%s/kernel.ptx", dir);
	snprintf(out, sizeof out, "%s/kernel.cubin", dir);
	snprintf(arch, sizeof arch, "-arch=%s", ir_target_name(target));
	fd = open(in, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || write_all(fd, ptx, len) != 0) {
		buf_printf(log, "cannot write %s: %s\n", in, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	close(fd);
	argv[0] = (char *)ptxas;
	argv[1] = arch;
	argv[2] = "-o";
	argv[3] = out;
	argv[4] = in;
	argv[5] = NULL;
	/* PTX with a line table (cakec --lineinfo) keeps it in the cubin */
	if (has_line_table(ptx, len)) {
		argv[5] = "-lineinfo";
		argv[6] = NULL;
	}
	if (run_captured(argv, log) != 0)
		goto out;
	data = read_file(out, &n);
	if (!data) {
		buf_printf(log, "ptxas wrote no cubin: %s\n", strerror(errno));
		goto out;
	}
	buf_putn(cubin, data, (int)n);
	free(data);
	rc = 0;
out:
	unlink(in);
	unlink(out);
	rmdir(dir);
	return rc;
}

int
ptx_ptxas_version(Buf *out)
{
	const char *ptxas = ptx_find_ptxas(), *v;
	char *argv[3];
	Buf log = {0};
	int rc = -1;
	size_t n;

	if (!ptxas)
		return -1;
	argv[0] = (char *)ptxas;
	argv[1] = "--version";
	argv[2] = NULL;
	/* "Cuda compilation tools, release 13.0, V13.0.88": the number after ", V" */
	if (run_captured(argv, &log) == 0 && log.s && (v = strstr(log.s, ", V"))) {
		v += 3;
		n = strspn(v, "0123456789.");
		if (n > 0) {
			buf_putn(out, v, (int)n);
			rc = 0;
		}
	}
	buf_free(&log);
	return rc;
}
