/* config: configs and their axes — see config.h. */
#include "check/config.h"

#include <stdlib.h>
#include <string.h>

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

int
mr_config_axes(const struct mr_config *cfg, int n, struct mr_axis **out)
{
	const char **keys = NULL;
	int nkeys = 0, naxes = 0, i, j, k, v;
	struct mr_axis *ax;

	for (i = 0; i < n; i++) {
		for (j = 0; j < cfg[i].n; j++) {
			for (k = 0; k < nkeys; k++)
				if (!strcmp(keys[k], cfg[i].key[j]))
					break;
			if (k == nkeys) {
				keys = erealloc(keys, sizeof *keys * (nkeys + 1));
				keys[nkeys++] = cfg[i].key[j];
			}
		}
	}
	ax = ecalloc(nkeys, sizeof *ax);
	for (k = 0; k < nkeys; k++) {
		struct mr_axis *a = &ax[naxes];

		/* The slot may hold a key found not to be an axis. */
		memset(a, 0, sizeof *a);
		a->key = keys[k];
		a->val = ecalloc(n, sizeof *a->val);
		for (i = 0; i < n; i++) {
			const char *val = mr_config_get(&cfg[i], keys[k]);

			for (v = 0; v < a->nval; v++)
				if (mr_config_same(a->val[v], val))
					break;
			if (v == a->nval)
				a->val[a->nval++] = val;
		}
		if (a->nval > 1)
			naxes++;
		else
			free(a->val);
	}
	free(keys);
	*out = ax;
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
mr_config_label(const struct mr_config *cfg, int ncfg, int i)
{
	struct mr_axis *ax;
	int naxes = mr_config_axes(cfg, ncfg, &ax), j, k;
	struct strbuf b = {0};

	for (j = 0; j < cfg[i].n; j++) {
		for (k = 0; k < naxes; k++)
			if (!strcmp(ax[k].key, cfg[i].key[j]))
				break;
		if (k < naxes)
			sb_printf(&b, "%s%s=%s", b.len ? "," : "", cfg[i].key[j],
				  cfg[i].val[j]);
	}
	mr_config_axes_free(ax, naxes);
	if (!b.len)
		sb_add(&b, cfg[i].str);
	return b.s;
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
	}
	free(v);
}
