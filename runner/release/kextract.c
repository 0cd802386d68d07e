/* kextract: vmlinux and the 9p modules of a kernel — see kextract.h. */
#include "release/kextract.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "release/cache.h"
#include "release/files.h"
#include "release/kmod.h"
#include "release/runout.h"
#include "release/releases.h"
#include "release/sha256.h"
#include "core/rmtree.h"

#define MANIFEST ".memrepro-manifest"
#define T_DECOMP 300 /* seconds */

static char *
entry_dir(const char *kver, const char *version)
{
	char *cache = mr_release_cache_dir();
	char *d = esprintf("%s/kernel/%s_%s", cache, kver, version);

	free(cache);
	return d;
}

/* Verify the entry dir against its manifest: 0 with k filled (k NULL:
 * only verify), -1 when it does not verify. */
static int
verify(const char *dir, struct mr_kernel *k)
{
	struct strbuf m = { 0 };
	char *path = esprintf("%s/%s", dir, MANIFEST), *line, *save = NULL;
	int rc = 0, nfile = 0;

	if (mr_rel_read_small(path, 1 << 16, &m) < 0 || !m.s) {
		free(path);
		sb_free(&m);
		return -1;
	}
	for (line = strtok_r(m.s, "\n", &save); line && rc == 0; line = strtok_r(NULL, "\n", &save)) {
		char kind[16], name[256], sha[65], hex[65], *f;

		if (sscanf(line, "%15s %255s %64s", kind, name, sha) != 3 ||
		    strcmp(kind, "source") == 0)
			continue;
		f = esprintf("%s/%s", dir, name);
		if (strstr(name, "..") || mr_sha256_file(f, hex) < 0 || strcmp(hex, sha)) {
			rc = -1;
		} else if (k && strcmp(kind, "vmlinux") == 0) {
			k->vmlinux = estrdup(f);
			k->vmlinux_sha256 = estrdup(sha);
		} else if (k && strcmp(kind, "module") == 0) {
			k->modules = erealloc(k->modules, sizeof *k->modules * (size_t)(k->nmodules + 1));
			k->modules[k->nmodules++] = estrdup(f);
		}
		nfile++;
		free(f);
	}
	if (nfile == 0)
		rc = -1;
	free(path);
	sb_free(&m);
	return rc;
}

int
mr_kextract_cached(const char *kver, const char *version)
{
	char *d = entry_dir(kver, version);
	int ok = verify(d, NULL) == 0;

	free(d);
	return ok;
}

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The bzImage vmlinuz decompressed into out: 0, or -1 with why. */
static int
vmlinux(const char *vmlinuz, const char *tmp, const char *out, struct strbuf *why)
{
	struct strbuf img = { 0 };
	char *payload = esprintf("%s/payload", tmp);
	const char *tool = NULL;
	size_t off, len, strip = 4;
	uint32_t want = 0;
	struct stat st;
	int rc = -1, fd;

	if (mr_rel_read_small(vmlinuz, 256u << 20, &img) < 0 || img.len < 0x250 ||
	    memcmp(img.s + 0x202, "HdrS", 4) != 0) {
		sb_printf(why, "%s: not a bzImage (no HdrS boot header)", vmlinuz);
		goto out;
	}
	off = ((size_t)((unsigned char)img.s[0x1f1] ? (unsigned char)img.s[0x1f1] : 4) + 1) * 512 +
	      le32((unsigned char *)img.s + 0x248);
	len = le32((unsigned char *)img.s + 0x24c);
	if (off + len > img.len || len < 16) {
		sb_printf(why, "%s: its payload (offset %zu, %zu bytes) is not inside it", vmlinuz,
			  off, len);
		goto out;
	}
	if (memcmp(img.s + off, "\xfd" "7zXZ", 6) == 0)
		tool = "xz";
	else if (memcmp(img.s + off, "\x28\xb5\x2f\xfd", 4) == 0)
		tool = "zstd";
	else if (memcmp(img.s + off, "\x1f\x8b", 2) == 0)
		tool = "gzip", strip = 0;
	if (!tool) {
		sb_printf(why, "%s: its payload is neither xz, zstd nor gzip", vmlinuz);
		goto out;
	}
	if (strip)
		want = le32((unsigned char *)img.s + off + len - 4);
	if ((fd = open(payload, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0 ||
	    write(fd, img.s + off, len - strip) != (ssize_t)(len - strip)) {
		sb_printf(why, "%s: %s", payload, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	close(fd);
	{
		char *argv[] = { (char *)tool, "-dc", payload, NULL };
		struct strbuf head = { 0 };

		if (mr_rel_run_out(argv, out, T_DECOMP, why) < 0)
			goto out;
		if (stat(out, &st) < 0 || (want && (uint32_t)st.st_size != want) ||
		    mr_rel_read_small(out, 4, &head) < 0 || head.len < 4 ||
		    memcmp(head.s, "\177ELF", 4) != 0) {
			sb_printf(why, "%s: %s -dc of its payload gave no vmlinux of %u bytes", vmlinuz,
				  tool, want);
			sb_free(&head);
			goto out;
		}
		sb_free(&head);
	}
	rc = 0;
out:
	unlink(payload);
	free(payload);
	sb_free(&img);
	return rc;
}

/* Make the entry in tmp: vmlinux, modules, manifest.  0 or -1 with why. */
static int
make(const struct mr_kernel *k, const char *vmlinuz, const char *modroot, const char *baseroot,
     const char *tmp, struct strbuf *why)
{
	struct strbuf man = { 0 };
	char *vm = esprintf("%s/vmlinux", tmp), *mp, hex[65];
	int rc = -1;

	if (mr_sha256_file(vmlinuz, hex) < 0) {
		sb_printf(why, "%s: cannot be read", vmlinuz);
		goto out;
	}
	sb_printf(&man, "source %s %s\n", k->package, hex);
	if (vmlinux(vmlinuz, tmp, vm, why) < 0 || mr_sha256_file(vm, hex) < 0)
		goto out;
	sb_printf(&man, "vmlinux vmlinux %s\n", hex);
	if (mr_kmod_extract(modroot, baseroot, k->kver, tmp, &man, why) < 0)
		goto out;
	mp = esprintf("%s/%s", tmp, MANIFEST);
	if (mr_rel_write_file(mp, man.s) < 0) {
		sb_printf(why, "%s: %s", mp, strerror(errno));
		free(mp);
		goto out;
	}
	free(mp);
	rc = 0;
out:
	free(vm);
	sb_free(&man);
	return rc;
}

int
mr_kextract(struct mr_kernel *k, const char *vmlinuz, const char *modroot, const char *baseroot,
	    struct strbuf *why)
{
	char *dir = entry_dir(k->kver, k->version), *tmp, *parent;
	int rc = -1;

	if (verify(dir, k) == 0) {
		free(dir);
		return 0;
	}
	free(k->vmlinux);
	free(k->vmlinux_sha256);
	k->vmlinux = k->vmlinux_sha256 = NULL;
	while (k->nmodules > 0)
		free(k->modules[--k->nmodules]);
	tmp = esprintf("%s.tmp-%ld", dir, (long)getpid());
	parent = estrndup(dir, (size_t)(strrchr(dir, '/') - dir));
	mr_rmtree(tmp);
	if (mkdir_p(parent) < 0 || mkdir(tmp, 0755) < 0) {
		sb_printf(why, "%s: %s", tmp, strerror(errno));
	} else if (make(k, vmlinuz, modroot, baseroot, tmp, why) == 0) {
		mr_rmtree(dir);
		if (rename(tmp, dir) < 0)
			sb_printf(why, "rename %s: %s", tmp, strerror(errno));
		else if (verify(dir, k) < 0)
			sb_printf(why, "%s does not verify right after it was made", dir);
		else
			rc = 0, k->fetched = 1;
	}
	if (rc < 0)
		mr_rmtree(tmp);
	free(tmp);
	free(parent);
	free(dir);
	return rc;
}
