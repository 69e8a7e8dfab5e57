/* Results into benchstat's tables (golang.org/x/perf
 * cmd/benchstat/internal/benchtab/builder.go with the default projections
 * -table .config -row .fullname -col .file): every value of a result goes
 * to the table of its file configuration and unit, the row of its full
 * name and the column of its side. Names, columns and units are numbered
 * in order of first appearance, which is their order in the tables;
 * tables are ordered by their configuration values as text (key by key,
 * in the keys' order of first appearance, an absent key first), then by
 * unit. (benchproc orders a value of a configuration key by its first
 * appearance too, but never records one, so it falls back to the text.) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/internal.h"
#include "util/diag.h"
#include "util/xalloc.h"

int grow_array(void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return 0;
    int ncap = *cap ? *cap : 16;
    while (ncap < need)
        ncap *= 2;
    void *q = xreallocarray(*p, (size_t)ncap, elem);
    if (!q)
        return -1;
    *p = q;
    *cap = ncap;
    return 0;
}

int intern(struct interner *in, struct arena *a, const char *s, size_t len)
{
    int64_t *id = idmap_get(&in->map, s, len);
    if (id)
        return (int)*id;
    char *copy = arena_strndup(a, s, len);
    if (!copy || grow_array((void **)&in->s, &in->cap, in->n + 1, sizeof *in->s) ||
        idmap_put(&in->map, s, len, in->n + 1))
        return -1;
    in->s[in->n++] = copy;
    return in->n;
}

void interner_free(struct interner *in)
{
    idmap_free(&in->map);
    free(in->s);
    memset(in, 0, sizeof *in);
}

struct cmp_builder *cmp_builder_new(void)
{
    return xcalloc(1, sizeof(struct cmp_builder));
}

void cmp_builder_free(struct cmp_builder *b)
{
    if (!b)
        return;
    struct interner *ins[] = {&b->fields, &b->values, &b->rows, &b->cols, &b->units, &b->exact, &b->ignored, &b->keys};
    for (size_t i = 0; i < sizeof ins / sizeof *ins; i++)
        interner_free(ins[i]);
    for (int i = 0; i < b->ntables; i++)
        free(b->tables[i].cfg);
    free(b->tables);
    free(b->unit_info);
    idmap_free(&b->table_keys);
    idmap_free(&b->unit_meta);
    idmap_free(&b->cell_keys);
    free(b->cells);
    free(b->vcell);
    free(b->vval);
    free(b->tuple);
    arena_free(&b->arena);
    free(b);
}

int cmp_builder_col(struct cmp_builder *b, const char *col)
{
    return intern(&b->cols, &b->arena, col, strlen(col)) < 0 ? -1 : 0;
}

size_t cmp_builder_values(const struct cmp_builder *b)
{
    return b->nv;
}

int cmp_builder_exact(struct cmp_builder *b, const char *unit)
{
    return intern(&b->exact, &b->arena, unit, strlen(unit)) < 0 ? -1 : 0;
}

int cmp_builder_ignore(struct cmp_builder *b, const char *key)
{
    return intern(&b->ignored, &b->arena, key, strlen(key)) < 0 ? -1 : 0;
}

const char *const *cmp_builder_keys(const struct cmp_builder *b, int *n)
{
    *n = b->keys.n;
    return b->keys.s;
}

/* Whether key is left out (--ignore). */
static int ignored(const struct cmp_builder *b, const char *key)
{
    return b->ignored.n && idmap_get(&b->ignored.map, key, strlen(key)) != NULL;
}

/* The configuration of a result as value ids per field; returns how many
 * fields it spans (trailing absent ones dropped), -1 on failure. */
static int config_tuple(struct cmp_builder *b, const struct cmp_config *cfg, size_t ncfg)
{
    for (size_t i = 0; i < ncfg; i++)
        if (intern(&b->keys, &b->arena, cfg[i].key, strlen(cfg[i].key)) < 0 ||
            (!ignored(b, cfg[i].key) && intern(&b->fields, &b->arena, cfg[i].key, strlen(cfg[i].key)) < 0))
            return -1;
    if (grow_array((void **)&b->tuple, &b->cap_tuple, b->fields.n + 1, sizeof *b->tuple))
        return -1;
    memset(b->tuple, 0, (size_t)(b->fields.n + 1) * sizeof *b->tuple);
    int len = 0;
    for (size_t i = 0; i < ncfg; i++) {
        if (ignored(b, cfg[i].key))
            continue;
        int f = (int)*idmap_get(&b->fields.map, cfg[i].key, strlen(cfg[i].key)) - 1;
        int v = intern(&b->values, &b->arena, cfg[i].value, strlen(cfg[i].value));
        if (v < 0)
            return -1;
        b->tuple[f] = v;
        if (f + 1 > len)
            len = f + 1;
    }
    while (len > 0 && b->tuple[len - 1] == 0)
        len--;
    return len;
}

/* The table of a configuration (b->tuple[0..ncfg)) and unit: its index. */
static int table_of(struct cmp_builder *b, int ncfg, int unit)
{
    b->tuple[ncfg] = -unit; /* unit ids are > 0: the key cannot be a longer configuration */
    size_t klen = (size_t)(ncfg + 1) * sizeof *b->tuple;
    int64_t *t = idmap_get(&b->table_keys, b->tuple, klen);
    if (t)
        return (int)*t;
    if (grow_array((void **)&b->tables, &b->cap_tables, b->ntables + 1, sizeof *b->tables))
        return -1;
    struct btable *bt = &b->tables[b->ntables];
    bt->cfg = xmalloc((size_t)(ncfg ? ncfg : 1) * sizeof *bt->cfg);
    if (!bt->cfg)
        return -1;
    memcpy(bt->cfg, b->tuple, (size_t)ncfg * sizeof *bt->cfg);
    bt->ncfg = ncfg;
    bt->unit = unit;
    if (idmap_put(&b->table_keys, b->tuple, klen, b->ntables)) {
        free(bt->cfg);
        return -1;
    }
    return b->ntables++;
}

static int cell_of(struct cmp_builder *b, int table, int row, int col)
{
    int32_t key[3] = {table, row, col};
    int64_t *c = idmap_get(&b->cell_keys, key, sizeof key);
    if (c)
        return (int)*c;
    if (grow_array((void **)&b->cells, &b->cap_cells, b->ncells + 1, sizeof *b->cells) ||
        idmap_put(&b->cell_keys, key, sizeof key, b->ncells))
        return -1;
    memcpy(b->cells[b->ncells], key, sizeof key);
    return b->ncells++;
}

static int unit_of(struct cmp_builder *b, const struct cmp_value *v)
{
    int u = intern(&b->units, &b->arena, v->unit, strlen(v->unit));
    if (u < 0 || grow_array((void **)&b->unit_info, &b->cap_unit_info, u, sizeof *b->unit_info))
        return -1;
    struct bunit *bu = &b->unit_info[u - 1];
    if (u > b->n_unit_info) {
        b->n_unit_info = u;
        bu->label = b->units.s[u - 1];
        bu->orig = arena_strdup(&b->arena, v->orig_unit ? v->orig_unit : v->unit);
        /* The metric as ingest names it: its unit as the file wrote it (MB/s). */
        bu->metric = arena_strdup(&b->arena, v->metric ? v->metric : v->orig_unit ? v->orig_unit : v->unit);
        bu->primary = v->primary || (v->metric && strcmp(v->metric, "primary") == 0);
        if (!bu->orig || !bu->metric)
            return -1;
    }
    return u;
}

int cmp_builder_add(struct cmp_builder *b, const char *col, const struct cmp_config *cfg, size_t ncfg,
                    const char *name, const struct cmp_value *v, size_t nv)
{
    int c = intern(&b->cols, &b->arena, col, strlen(col));
    int r = intern(&b->rows, &b->arena, name, strlen(name));
    int ncfgv = c < 0 || r < 0 ? -1 : config_tuple(b, cfg, ncfg);
    if (ncfgv < 0)
        return -1;
    for (size_t i = 0; i < nv; i++) {
        int u = unit_of(b, &v[i]);
        int t = u < 0 ? -1 : table_of(b, ncfgv, u);
        int cell = t < 0 ? -1 : cell_of(b, t, r, c);
        if (cell < 0)
            return -1;
        if (b->nv == b->capv) {
            size_t cap = b->capv ? 2 * b->capv : 1024;
            int32_t *vc = xreallocarray(b->vcell, cap, sizeof *vc);
            if (!vc)
                return -1;
            b->vcell = vc;
            double *vv = xreallocarray(b->vval, cap, sizeof *vv);
            if (!vv)
                return -1;
            b->vval = vv;
            b->capv = cap;
        }
        b->vcell[b->nv] = cell;
        b->vval[b->nv++] = v[i].value;
    }
    return 0;
}
