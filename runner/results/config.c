/* config: configs and their axes — see config.h. */
#include "results/config.h"

#include <stdlib.h>
#include <string.h>

#include "core/version.h"
#include "core/hash.h"
#include "core/util.h"

int
mr_config_parse(const char *s, struct mr_config *c, const char **why)
{
	int n = 1, i;
	char *p;

	memset(c, 0, sizeof *c);
	if (!*s) {
		*why = "empty config";
		return -1;
	}
	for (p = (char *)s; *p; p++)
		if (*p == ',')
			n++;
	c->buf = estrdup(s);
	c->key = ecalloc(n, sizeof *c->key);
	c->val = ecalloc(n, sizeof *c->val);
	c->n = split(c->buf, ',', c->key, n);
	for (i = 0; i < c->n; i++) {
		char *eq = strchr(c->key[i], '=');

		if (!eq || eq == c->key[i]) {
			*why = "expected key=value pairs joined by commas";
			goto fail;
		}
		*eq = '\0';
		c->val[i] = eq + 1;
		if (!*c->val[i] || strchr(c->val[i], '=')) {
			*why = "expected key=value pairs joined by commas";
			goto fail;
		}
		if (i > 0 && strcmp(c->key[i - 1], c->key[i]) >= 0) {
			*why = "keys not sorted or repeated (not the canonical form)";
			goto fail;
		}
	}
	c->str = estrdup(s);
	return 0;
fail:
	mr_config_free(c);
	return -1;
}

const char *
mr_config_get(const struct mr_config *c, const char *key)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->key[i], key))
			return c->val[i];
	return NULL;
}

void
mr_config_free(struct mr_config *c)
{
	free(c->str);
	free(c->key);
	free(c->val);
	free(c->buf);
	memset(c, 0, sizeof *c);
}

int
mr_config_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* A key of a set of configs while its axis is found: its values so far
 * (hashed), whether a config without it came (the value NULL), the last
 * config that had it. */
struct key_vals {
	struct mr_axis ax;
	int cap;
	int last;
	int has_null;
	struct mr_hash vh;
};

struct name_key {
	const char *const *names;
	const char *name;
};

static int
name_eq(const void *ctx, int i)
{
	const struct name_key *n = ctx;

	return n->names[i] && !strcmp(n->names[i], n->name);
}

static void
add_val(struct key_vals *kv, const char *val)
{
	if (kv->ax.nval == kv->cap) {
		kv->cap = kv->cap ? 2 * kv->cap : 4;
		kv->ax.val = erealloc(kv->ax.val, sizeof *kv->ax.val * (size_t)kv->cap);
	}
	kv->ax.val[kv->ax.nval++] = val;
}

/* Config i has val for key kv: the value in order of appearance, NULL
 * first when a config before i lacked the key. */
static void
saw(struct key_vals *kv, int i, const char *val)
{
	struct name_key nk;
	uint64_t hv = mr_hash_str(MR_HASH0, val);

	/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): kv is one of mr_config_axes' */
	if (kv->last != i - 1 && !kv->has_null) {
		kv->has_null = 1;
		add_val(kv, NULL);
	}
	kv->last = i;
	/* the values as they are now: add_val above may have moved them */
	nk.names = kv->ax.val;
	nk.name = val;
	if (mr_hash_find(&kv->vh, hv, name_eq, &nk) < 0) {
		mr_hash_add(&kv->vh, hv, kv->ax.nval);
		add_val(kv, val);
	}
}

int
mr_config_axes(const struct mr_config *cfg, int n, struct mr_axis **out)
{
	struct key_vals *kv = NULL;
	struct mr_hash kh = { 0 };
	const char **keys = NULL;
	int nkeys = 0, naxes = 0, i, j, k;

	for (i = 0; i < n; i++) {
		for (j = 0; j < cfg[i].n; j++) {
			struct name_key nk = { keys, cfg[i].key[j] };
			uint64_t hv = mr_hash_str(MR_HASH0, cfg[i].key[j]);

			k = mr_hash_find(&kh, hv, name_eq, &nk);
			if (k < 0) {
				k = nkeys++;
				keys = erealloc(keys, sizeof *keys * (size_t)nkeys);
				kv = erealloc(kv, sizeof *kv * (size_t)nkeys);
				keys[k] = cfg[i].key[j];
				memset(&kv[k], 0, sizeof kv[k]);
				kv[k].ax.key = keys[k];
				kv[k].last = -1;
				mr_hash_add(&kh, hv, k);
			}
			saw(&kv[k], i, cfg[i].val[j]);
		}
	}
	*out = ecalloc((size_t)nkeys + 1, sizeof **out);
	for (k = 0; k < nkeys; k++) {
		if (kv[k].last != n - 1 && !kv[k].has_null)
			add_val(&kv[k], NULL);
		mr_hash_free(&kv[k].vh);
		if (kv[k].ax.nval > 1)
			(*out)[naxes++] = kv[k].ax;
		else
			free(kv[k].ax.val);
	}
	mr_hash_free(&kh);
	free(keys);
	free(kv);
	return naxes;
}

void
mr_config_axes_free(struct mr_axis *ax, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(ax[i].val);
	free(ax);
}

char *
mr_config_label_of(const struct mr_config *c, const struct mr_axis *ax, int naxes)
{
	struct strbuf b = {0};
	int j, k;

	for (j = 0; j < c->n; j++) {
		for (k = 0; k < naxes; k++)
			if (!strcmp(ax[k].key, c->key[j]))
				break;
		if (k < naxes)
			sb_printf(&b, "%s%s=%s", b.len ? "," : "", c->key[j], c->val[j]);
	}
	if (!b.len)
		sb_add(&b, c->str);
	return b.s;
}

char *
mr_config_label(const struct mr_config *cfg, int ncfg, int i)
{
	struct mr_axis *ax;
	int naxes = mr_config_axes(cfg, ncfg, &ax);
	char *label = mr_config_label_of(&cfg[i], ax, naxes);

	mr_config_axes_free(ax, naxes);
	return label;
}

/* v's kernel, its version and THP mode, of config c. */
static void
kernel_ver(struct mr_config_ver *v, const struct mr_config *c, mr_host_version_fn *host,
	   void *ctx)
{
	const char *k = mr_config_get(c, "kernel"), *t = mr_config_get(c, "kernel.thp"), *h;
	char buf[64], *name;

	if (!k || !strcmp(k, "host")) {
		h = host ? host(ctx, "thp", buf, sizeof buf) : NULL;
		v->thp = h ? estrdup(h) : NULL;
		h = host ? host(ctx, "kernel", buf, sizeof buf) : NULL;
		v->kernel_ver = h ? estrdup(h) : NULL;
		return;
	}
	/* a guest's (docs/kernels.md) */
	name = esprintf("thp@kernel=%s", k);
	h = t ? t : host ? host(ctx, name, buf, sizeof buf) : NULL;
	free(name);
	v->thp = h ? estrdup(h) : NULL;
	v->kernel = estrdup(k);
	name = esprintf("kernel=%s", k);
	h = host ? host(ctx, name, buf, sizeof buf) : NULL;
	free(name);
	if (!h && mr_version_valid(k, strlen(k)))
		h = k;
	v->kernel_ver = h ? estrdup(h) : NULL;
}

struct mr_config_ver *
mr_config_vers(const struct mr_config *cfg, int n, mr_host_version_fn *host,
	       void *ctx)
{
	struct mr_config_ver *v = ecalloc(n + 1, sizeof *v);
	char buf[64];
	int i;

	for (i = 0; i < n; i++) {
		const char *a = mr_config_get(&cfg[i], "allocator");
		const char *l = mr_config_get(&cfg[i], "libc");
		const char *at = a ? strchr(a, '@') : NULL, *h;

		if (a && at && at != a) {
			v[i].alloc = estrndup(a, (size_t)(at - a));
			v[i].alloc_ver = estrdup(at + 1);
		} else if (a) {
			v[i].alloc = estrdup(a);
			h = host ? host(ctx, a, buf, sizeof buf) : NULL;
			v[i].alloc_ver = h ? estrdup(h) : NULL;
		}
		h = l ? l : host ? host(ctx, "libc", buf, sizeof buf) : NULL;
		v[i].libc_ver = h ? estrdup(h) : NULL;
		kernel_ver(&v[i], &cfg[i], host, ctx);
	}
	return v;
}

void
mr_config_vers_free(struct mr_config_ver *v, int n)
{
	int i;

	for (i = 0; v && i < n; i++) {
		free(v[i].alloc);
		free(v[i].alloc_ver);
		free(v[i].libc_ver);
		free(v[i].kernel);
		free(v[i].kernel_ver);
		free(v[i].thp);
	}
	free(v);
}
