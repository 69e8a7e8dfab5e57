/* Catch2's XML reporter (--reporter xml): each <BenchmarkResults> (inside
 * a <TestCase>, maybe in <Section>s) holds what Catch2 computed from its
 * samples, in nanoseconds: <mean value lowerBound upperBound ci>,
 * <standardDeviation ...>, <outliers ...>; the samples themselves are not
 * written (Catch2 2.x and 3.x alike: XmlReporter::benchmarkEnded). So the
 * one value a benchmark gives is its mean (unit ns), and everything else
 * goes to the series detail; a <failed message> is an event. The cell is
 * the benchmark's name with params test_case (and section, the nested
 * sections' names joined by "/"). The same cell again (a benchmark in a
 * loop) is the next fork. The root element's attributes (Catch2's
 * version, the rng seed) become run attributes.
 *
 * Catch2 3.x's JSON reporter writes no benchmark results at all
 * (JsonReporter::benchmarkEnded is empty): such a file is refused with
 * that said. docs/formats.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/idmap.h"
#include "ingest/core/utf8.h"
#include "ingest/decoders/catch2/catch2.h"
#include "ingest/decoders/catch2/xml.h"
#include "ingest/decoders/harness.h"

#define MAX_DEPTH 256

struct state {
    struct harness_ctx *c;
    struct xml_reader x;
    char *stack[MAX_DEPTH]; /* open elements' names */
    char *label[MAX_DEPTH]; /* their name attribute (TestCase, Section), or NULL */
    int depth;
    json_t *bench;          /* the <BenchmarkResults> being read: its attributes and children */
    size_t bench_line;
    struct idmap forks;     /* name NUL params -> forks so far */
    struct strbuf key, path;
};

static const char *where(struct state *s, size_t line)
{
    sb_reset(&s->path);
    return sb_printf(&s->path, "line %zu", line) ? "?" : s->path.buf;
}

/* An element's attributes as an object: numbers as numbers, the rest as text. */
static json_t *attrs(struct state *s)
{
    json_t *o = json_object();
    for (size_t i = 0; o && i < s->x.n_attrs; i++) {
        const char *v = s->x.buf.buf + s->x.attr_value[i];
        double d;
        json_t *jv = !harness_parse_number(v, strlen(v), &d) ? json_string(v)
                     : strpbrk(v, ".eE") || d != (double)(json_int_t)d ? json_real(d) : json_integer((json_int_t)d);
        if (!jv || json_object_set_new(o, s->x.buf.buf + s->x.attr_name[i], jv)) {
            json_decref(o);
            return NULL;
        }
    }
    return o;
}

/* Text from the file is UTF-8 without NUL before it reaches the store. */
static int check_text(struct state *s, const char *what, const char *t)
{
    size_t n = strlen(t), at = utf8_bad_at(t, n);
    if (at == n)
        return 0;
    char d[96];
    utf8_describe(t, at, "byte", d, sizeof d);
    return harness_fail(s->c, where(s, s->x.line), "%s %s", what, d);
}

static int params(struct state *s)
{
    json_t *p = json_object();
    struct strbuf sec = {0};
    int rc = p ? 0 : -1;
    for (int i = 0; rc == 0 && i < s->depth; i++) {
        if (!s->label[i])
            continue;
        if (strcmp(s->stack[i], "TestCase") == 0)
            rc = json_object_set_new(p, "test_case", json_string(s->label[i]));
        else if (strcmp(s->stack[i], "Section") == 0)
            rc = (sec.len && sb_putc(&sec, '/')) || sb_puts(&sec, s->label[i]) ? -1 : 0;
    }
    if (rc == 0 && sec.len)
        rc = json_object_set_new(p, "section", json_stringn(sec.buf, sec.len));
    sb_free(&sec);
    rc = rc ? ingest_report_oom(s->c->rep) : harness_params(s->c, p);
    json_decref(p);
    return rc;
}

/* </BenchmarkResults>: its one value, or an event when it failed. */
static int bench_end(struct state *s)
{
    struct harness_ctx *c = s->c;
    json_t *b = s->bench;
    const char *name = json_string_value(json_object_get(b, "name"));
    const char *at = where(s, s->bench_line);
    char at_copy[48];
    snprintf(at_copy, sizeof at_copy, "%s", at);
    if (!name || !*name)
        return harness_fail(c, at_copy, "BenchmarkResults: expected a name attribute");
    if (params(s))
        return -1;
    json_t *failed = json_object_get(b, "failed");
    if (failed) {
        json_t *d = json_pack("{s:s,s:s,s:O}", "name", name, "params", c->params.buf, "failed", failed);
        int rc = !d ? ingest_report_oom(c->rep) : harness_detail(c, at_copy, d);
        json_decref(d);
        return rc ? rc : harness_event(c, "benchmark-error", name, c->detail.buf);
    }
    json_t *mean = json_object_get(b, "mean");
    json_t *v = json_object_get(mean, "value");
    double x;
    if (!mean)
        return harness_fail(c, at_copy, "BenchmarkResults \"%s\": expected a <mean> element (the file is cut short?)",
                            name);
    if (!harness_number(v, &x)) {
        char at_mean[64];
        snprintf(at_mean, sizeof at_mean, "%s: mean.value", at_copy);
        return harness_wrong(c, at_mean, "a number", v);
    }
    sb_reset(&s->key);
    if (sb_puts(&s->key, name) || sb_putc(&s->key, 0) || sb_puts(&s->key, c->params.buf))
        return ingest_report_oom(c->rep);
    int64_t *seen = idmap_get(&s->forks, s->key.buf, s->key.len);
    long long fork = seen ? *seen : 0;
    if (idmap_put(&s->forks, s->key.buf, s->key.len, fork + 1))
        return ingest_report_oom(c->rep);
    if (json_object_set_new(b, "values_are", json_string("mean")))
        return ingest_report_oom(c->rep);
    if (harness_detail(c, at_copy, b))
        return -1;
    return harness_series(c, at_copy, name, fork, NULL, "ns", c->detail.buf, &x, NULL, 1, NULL, 0);
}

static int on_start(struct state *s)
{
    const char *nm = xml_name(&s->x);
    if (s->depth == MAX_DEPTH)
        return harness_fail(s->c, where(s, s->x.line), "elements nested more than %d deep", MAX_DEPTH);
    if (s->depth == 0 && strcmp(nm, "Catch") != 0 && strcmp(nm, "Catch2TestRun") != 0)
        return harness_fail(s->c, where(s, s->x.line), "expected the root element <Catch> (Catch2 2.x) or "
                                                      "<Catch2TestRun> (3.x), got <%s>", nm);
    const char *label = xml_attr(&s->x, "name");
    if (label && check_text(s, "name", label))
        return -1;
    s->stack[s->depth] = strdup(nm);
    s->label[s->depth] = label ? strdup(label) : NULL;
    s->depth++; /* freed with the rest of the stack, whatever happens */
    if (!s->stack[s->depth - 1] || (label && !s->label[s->depth - 1]))
        return ingest_report_oom(s->c->rep);
    if (s->depth == 1) { /* the run's facts */
        json_t *a = attrs(s);
        if (a && json_object_get(a, "name") &&
            (json_object_set(a, "test_binary", json_object_get(a, "name")) || json_object_del(a, "name"))) {
            json_decref(a);
            a = NULL;
        }
        int rc = a ? harness_attributes(s->c, a) : ingest_report_oom(s->c->rep);
        json_decref(a);
        return rc;
    }
    if (strcmp(nm, "BenchmarkResults") == 0) {
        json_decref(s->bench);
        s->bench = attrs(s);
        s->bench_line = s->x.line;
        return s->bench ? 0 : ingest_report_oom(s->c->rep);
    }
    if (s->bench && s->depth >= 2 && strcmp(s->stack[s->depth - 2], "BenchmarkResults") == 0) {
        json_t *a = attrs(s);
        if (!a || json_object_set_new(s->bench, nm, a))
            return ingest_report_oom(s->c->rep);
    }
    return 0;
}

static int on_end(struct state *s)
{
    const char *nm = xml_name(&s->x);
    if (s->depth == 0 || !s->stack[s->depth - 1] || strcmp(s->stack[s->depth - 1], nm) != 0)
        return harness_fail(s->c, where(s, s->x.line), "</%s> closes %s%s%s", nm, s->depth ? "<" : "no element",
                            s->depth ? s->stack[s->depth - 1] : "", s->depth ? ">" : "");
    int rc = 0;
    if (strcmp(nm, "BenchmarkResults") == 0 && s->bench) {
        rc = bench_end(s);
        json_decref(s->bench);
        s->bench = NULL;
    }
    s->depth--;
    free(s->stack[s->depth]);
    free(s->label[s->depth]);
    return rc;
}

int harness_catch2(struct harness_ctx *c, const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        i++;
    if (i < len && text[i] == '{')
        return harness_fail(c, NULL, "Catch2's JSON reporter writes no benchmark results (its benchmarkEnded writes "
                                     "nothing): run the benchmarks with --reporter xml");
    struct state s = {.c = c};
    xml_init(&s.x, text, len);
    int rc = 0;
    for (;;) {
        enum xml_event e = xml_next(&s.x);
        if (e == XML_EOF)
            break;
        if (e == XML_ERROR) {
            rc = harness_fail(c, where(&s, s.x.line), "%s", s.x.error);
            break;
        }
        rc = e == XML_START ? on_start(&s) : on_end(&s);
        if (rc)
            break;
    }
    if (rc == 0 && s.depth)
        rc = harness_fail(c, where(&s, s.x.line), "the file ends inside <%s> (it is cut short)", s.stack[s.depth - 1]);
    for (int k = 0; k < s.depth; k++) {
        free(s.stack[k]);
        free(s.label[k]);
    }
    json_decref(s.bench);
    idmap_free(&s.forks);
    sb_free(&s.key);
    sb_free(&s.path);
    xml_free(&s.x);
    return rc;
}
